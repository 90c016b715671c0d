// One configured MCP server's life (DESIGN.md §4): waiting for approval, starting,
// ready with its tools, failed with why and its stderr tail, stopped. "Ready" only
// once `tools/list` answered. A server that died is started again by the next call to
// one of its tools (at most RESTARTS times in RESTART_WINDOW_MS, then it stays failed
// until restarted by hand); one that sent a message too large is restarted at once.
// Each tool is checked against its fingerprint (mcpTrust.ts): a changed one is
// withheld, with the text it had and has, until the person approves it again.
import type { McpServerConfig, McpTransport } from './mcpConfig';
import { connectMcp, McpError, type ConnectOptions, type ListedTool, type McpConnection } from './mcpClient';
import { toolFingerprint, toolText, type McpTrust } from './mcpTrust';
import { hiddenIn, toolProblem, visibleTool } from './toolShape';
import { cutText } from '../../shared/format';

export type ServerState = 'untrusted' | 'disabled' | 'needs-approval' | 'needs-input' | 'starting' | 'ready' | 'failed' | 'stopped';

export interface WithheldTool {
  readonly tool: string;
  readonly before: string;
  readonly after: string;
  readonly listed: ListedTool;
  /** The fingerprint of what the card shows as `after`: approving records only that version. */
  readonly fingerprint: string;
}

export interface ServerStatus {
  readonly name: string;
  readonly source: McpServerConfig['source'];
  readonly project: boolean;
  readonly state: ServerState;
  /** What runs: the command line or the URL (variables filled in once known). */
  readonly launch: string;
  readonly tools: readonly string[];
  readonly withheld: readonly string[];
  /** Why it is in this state (the error, the missing input, the denial). */
  readonly detail?: string;
  /** Tools it lists that are not offered (a schema too deep, a name listed twice), and what its tools hide. */
  readonly notes?: readonly string[];
  readonly stderr?: string;
}

const RESTARTS = 3;
const RESTART_WINDOW_MS = 10 * 60_000;

export interface ServerLaunch {
  /** The configuration with its variables filled in, and what else a connection needs. */
  readonly transport: McpTransport;
  readonly connect: Omit<ConnectOptions, 'server' | 'transport' | 'signal' | 'onToolsChanged' | 'onClosed'>;
  /** Fingerprints are kept per workspace for a project's server, once for the person's own. */
  readonly trustScope: string;
  /** A project's server the person approved just now: the tools it lists now are approved with it; one added later waits for approval. */
  readonly fresh?: boolean;
}

export class McpServer {
  state: ServerState = 'stopped';
  detail: string | undefined;
  private connection: McpConnection | undefined;
  private starting: Promise<void> | undefined;
  private listed: ListedTool[] = [];
  private withheldTools = new Map<string, WithheldTool>();
  private notes: string[] = [];
  /** Each listed tool as the model is given it: hidden characters made visible. */
  private readonly visible = new WeakMap<ListedTool, ListedTool>();
  private restarts: number[] = [];
  private lastStderr = '';
  private launch: ServerLaunch | undefined;
  private generation = 0;

  constructor(
    readonly config: McpServerConfig,
    private readonly trust: McpTrust,
    private readonly changed: () => void,
  ) {}

  status(launchText: string): ServerStatus {
    const stderr = this.connection?.stderrTail() || this.lastStderr;
    return {
      name: this.config.name,
      source: this.config.source,
      project: this.config.project,
      state: this.state,
      launch: launchText,
      tools: this.state === 'ready' ? this.usable().map((t) => t.name) : [],
      withheld: [...this.withheldTools.keys()],
      ...(this.detail ? { detail: this.detail } : {}),
      ...(this.notes.length > 0 ? { notes: [...this.notes] } : {}),
      ...(stderr ? { stderr } : {}),
    };
  }

  /**
   * Its tools the model may see: listed, and not withheld for a changed fingerprint. A
   * server that died keeps its tools: the next call to one starts it again.
   */
  usable(): ListedTool[] {
    if (this.state !== 'ready' && this.state !== 'failed' && this.state !== 'starting') return [];
    return this.listed.filter((t) => !this.withheldTools.has(t.name)).map((t) => {
      let shown = this.visible.get(t);
      if (!shown) this.visible.set(t, (shown = visibleTool(t)));
      return shown;
    });
  }

  /** Whether `name` is among usable() (asked on every call: no list is built). */
  offers(name: string): boolean {
    if (this.state !== 'ready' && this.state !== 'failed' && this.state !== 'starting') return false;
    return !this.withheldTools.has(name) && this.listed.some((t) => t.name === name);
  }

  hasWithheld(): boolean {
    return this.withheldTools.size > 0;
  }

  withheld(): WithheldTool[] {
    return [...this.withheldTools.values()];
  }

  get pid(): number | undefined {
    return this.connection?.pid;
  }

  /** Marks a state that is not running (needs approval, untrusted, disabled, needs input). */
  hold(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    this.changed();
  }

  /** Starts it (or joins the start in flight); resolves when ready or failed, never rejects. */
  start(launch: ServerLaunch, signal: AbortSignal): Promise<void> {
    // Running already (started from the panel before a turn's ready()): one process, not two.
    if (this.connection && this.state === 'ready') return Promise.resolve();
    this.launch = launch;
    this.starting ??= this.connect(launch, signal).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(launch: ServerLaunch, signal: AbortSignal): Promise<void> {
    const generation = ++this.generation;
    this.state = 'starting';
    this.detail = undefined;
    this.changed();
    // One deadline for initialize and the whole tool list.
    const started = performance.now();
    try {
      const connection = await connectMcp({
        ...launch.connect,
        server: this.config.name,
        transport: launch.transport,
        signal,
        onToolsChanged: () => void this.refresh(generation),
        onClosed: (why, tooLarge) => this.closed(generation, why, tooLarge),
      });
      if (generation !== this.generation) return void (await connection.close()); // stopped meanwhile
      this.connection = connection;
      const listed = await connection.listTools(Math.max(1, launch.connect.initTimeoutMs - (performance.now() - started)), signal);
      if (generation !== this.generation) return;
      this.take(listed, launch);
      // Only the listing right after the person approved the server comes with it: a tool added later waits.
      this.launch = { ...launch, fresh: false };
      this.state = 'ready';
    } catch (error) {
      if (generation !== this.generation) return;
      this.lastStderr = this.connection?.stderrTail() ?? '';
      await this.connection?.close();
      this.connection = undefined;
      this.state = 'failed';
      this.detail = error instanceof Error ? error.message : String(error);
    }
    this.changed();
  }

  /**
   * A listing checked whole, then taken at once (a tool that fails a check never leaves
   * a half-checked set behind): a tool that cannot be offered is noted; a name listed
   * twice counts once; each is checked against its fingerprint — changed, or new to a
   * project's server since it was approved, it is withheld until approved.
   */
  private take(listed: readonly ListedTool[], launch: ServerLaunch): void {
    const offered: ListedTool[] = [];
    const notes: string[] = [];
    const names = new Set<string>();
    for (const tool of listed) {
      const problem = toolProblem(tool);
      const name = typeof (tool as { name?: unknown }).name === 'string' ? cutText(tool.name, 80) : '(no name)';
      if (problem) notes.push(`${name} is not offered: ${problem}`);
      else if (names.has(tool.name)) notes.push(`${name} is listed twice: the first is offered`);
      else {
        names.add(tool.name);
        offered.push(tool);
        for (const hidden of hiddenIn(tool)) notes.push(`${name} hides ${hidden} (shown to the model as ⟨U+…⟩)`);
      }
    }
    const acceptNew = !this.config.project || launch.fresh === true;
    const verdicts = this.trust.checkTools(launch.trustScope, this.config.name, offered, acceptNew);
    const withheld = new Map<string, WithheldTool>();
    for (const tool of offered) {
      const verdict = verdicts.get(tool.name);
      const before = verdict?.state === 'changed' ? (verdict.before ?? '(not recorded)') : verdict?.state === 'unapproved' ? '(none: the server added this tool after you approved it)' : undefined;
      if (before !== undefined) withheld.set(tool.name, { tool: tool.name, before, after: toolText(tool), listed: tool, fingerprint: toolFingerprint(tool) });
    }
    this.listed = offered;
    this.withheldTools = withheld;
    this.notes = notes;
  }

  /** `tools/list_changed`: listed again; the new set replaces the old at once. */
  private async refresh(generation: number): Promise<void> {
    const connection = this.connection;
    if (!connection || generation !== this.generation || !this.launch) return;
    try {
      const listed = await connection.listTools(this.launch.connect.initTimeoutMs, AbortSignal.timeout(this.launch.connect.initTimeoutMs));
      if (generation !== this.generation) return;
      this.take(listed, this.launch);
      this.changed();
    } catch {
      // the close (if that is why) says so
    }
  }

  private closed(generation: number, why: string, tooLarge: boolean): void {
    if (generation !== this.generation) return;
    this.lastStderr = this.connection?.stderrTail() ?? this.lastStderr;
    this.connection = undefined;
    this.state = 'failed';
    this.detail = why;
    this.changed();
    if (tooLarge && this.launch && this.restartAllowed()) void this.start(this.launch, new AbortController().signal);
  }

  /**
   * The person approved the tools a card showed (`shown`: name → fingerprint shown): only
   * a tool still exactly as shown is recorded and returns — one that changed again while
   * the card was open stays withheld, for a card of its own.
   */
  approveWithheld(shown: ReadonlyMap<string, string>): void {
    if (!this.launch) return;
    const recorded = this.trust.approveTools(this.launch.trustScope, this.config.name, [...this.withheldTools.values()].map((w) => w.listed), shown);
    for (const name of recorded) this.withheldTools.delete(name);
    this.changed();
  }

  /** The running connection when nothing is starting: the usual call need not wait for anything. */
  readyNow(): McpConnection | undefined {
    return this.starting ? undefined : this.connection;
  }

  /** The running connection, started again when it died (within the restart budget). */
  async ready(signal: AbortSignal): Promise<McpConnection> {
    if (this.starting) await this.starting;
    if (!this.connection && this.state === 'failed' && this.launch) {
      if (!this.restartAllowed()) throw new McpError('unavailable', `MCP server "${this.config.name}" failed ${RESTARTS} times in ten minutes and is left stopped: ${this.detail ?? ''}. Restart it from the MCP section.`);
      await this.start(this.launch, signal);
    }
    if (!this.connection) throw new McpError('unavailable', `MCP server "${this.config.name}" is ${this.state}${this.detail ? `: ${this.detail}` : ''}`);
    return this.connection;
  }

  /** Every automatic restart counts: at most RESTARTS in RESTART_WINDOW_MS (a server that always sends too much does not loop). */
  private restartAllowed(): boolean {
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= RESTARTS) return false;
    this.restarts.push(now);
    return true;
  }

  async stop(state: ServerState = 'stopped'): Promise<void> {
    this.generation++;
    const connection = this.connection;
    this.connection = undefined;
    this.listed = [];
    this.state = state;
    this.detail = undefined;
    await connection?.close();
    this.changed();
  }
}
