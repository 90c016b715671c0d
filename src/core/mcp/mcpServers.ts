// The MCP servers of one workspace (DESIGN.md §4 "MCP tools", §5): every configured
// server (mcpConfig.ts), each started once the rules allow it — the person's own at
// once; a project's only in a trusted workspace and after the person approved it on a
// card bound to its configuration's hash (any change asks again). Its tools become Peon
// tools named by the lookup table (mcpNames.ts: never a built-in's name), changed ones
// withheld until approved from a card showing the old and new text. One instance per
// window (the panel) or process (the CLI), shared by its conversations; a face supplies
// its hooks: the approver, where secrets and approvals are kept, the person to ask.
import path from 'node:path';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Approver } from '../permissions/approvals';
import type { SettingValues } from '../settings';
import { BUILTIN_TOOLS } from '../tools/builtins';
import type { AnyTool, ApprovalSummary, ToolContext, ToolResult } from '../tools/contract';
import { ToolError } from '../tools/toolError';
import { mcpConfig, type McpConfigProblem, type McpInput, type McpServerConfig, type McpTransport } from './mcpConfig';
import { McpError, type ListedTool, type McpAuthorizer } from './mcpClient';
import { assignToolNames } from './mcpNames';
import { mapCallResult } from './mcpResult';
import { McpServer, type ServerLaunch, type ServerStatus } from './mcpServer';
import { mcpTool, type McpToolRef } from './mcpTool';
import { toolFingerprint, type McpTrust } from './mcpTrust';
import { expandForDisplay, expandServer } from './mcpVariables';
import type { McpSecretStore } from './secretStore';
import { approvalHash } from './serverApproval';
import { envFileFacts, launchFacts, type LaunchFacts } from './launchFacts';
import { commandLine, parseEnvFile, serverCard } from './serverCard';

export type { ServerStatus };

export interface McpHooks {
  /** Puts an approval card to the person (a project server, changed tools); absent: nothing can be approved. */
  readonly approve?: Approver;
  /** Who asks, on cards (`main`, `cli`). */
  readonly agent: string;
  /** Asks for an `${input:id}` value; it is kept in `secrets` afterwards. */
  readonly askInput?: (server: string, input: McpInput, signal: AbortSignal) => Promise<string | undefined>;
  readonly secrets: McpSecretStore;
  readonly elicit?: (server: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** An HTTP server's OAuth (mcpAuth.ts), from its configuration with the variables filled in (its `oauth` client). */
  readonly authorizer?: (server: McpServerConfig, transport: Extract<McpTransport, { kind: 'http' }>) => Promise<McpAuthorizer>;
  /** A server's state or the tool set changed. */
  readonly onChange?: () => void;
  /** Servers turned off for this workspace (the panel's toggle): never started. */
  readonly disabledServers?: () => readonly string[];
  /** Tools (by their Peon name) turned off for this workspace. */
  readonly disabledTools?: () => readonly string[];
}

export interface McpServersOptions {
  /** `peon.mcp.servers`, from user settings. */
  readonly settings: SettingValues;
  /** The workspace folders; the first holds the project's MCP files. */
  readonly folders: readonly string[];
  readonly trusted: boolean;
  readonly trust: McpTrust;
  readonly hostEnv: NodeJS.ProcessEnv;
  readonly home: string;
  readonly version: string;
  readonly hooks: McpHooks;
}

const RESERVED = new Set(BUILTIN_TOOLS.map((t) => t.name.toLowerCase()));
const seconds = (value: number | undefined, fallback: number): number => (value ?? fallback) * 1000;

export class McpServers {
  readonly problems: readonly McpConfigProblem[];
  private readonly servers: McpServer[];
  private readonly launches = new Map<string, string>();
  private started: Promise<void> | undefined;
  private startedAll = false;
  /** Cards already answered this session (a denial is not asked again until restarted by hand). */
  private readonly asked = new Set<string>();
  private table = new Map<string, McpToolRef & { readonly listed: ListedTool }>();
  private readonly built = new Map<string, AnyTool>();
  private toolList: AnyTool[] = [];
  /** Bumped whenever the tool set changes: a conversation rebuilds its registry then. */
  version = 0;
  private readonly root: string | undefined;

  constructor(private readonly options: McpServersOptions) {
    this.root = options.folders[0];
    const config = mcpConfig(options.settings['peon.mcp.servers'] ?? {}, this.root);
    this.problems = config.problems;
    this.servers = config.servers.map((c) => new McpServer(c, options.trust, () => this.changed()));
    for (const s of this.servers) this.launches.set(s.config.name, s.config.transport.kind === 'stdio' ? commandLine(s.config.transport.command, s.config.transport.args) : s.config.transport.url);
  }

  get configured(): boolean {
    return this.servers.length > 0;
  }

  statuses(): ServerStatus[] {
    return this.servers.map((s) => s.status(this.launches.get(s.config.name) ?? ''));
  }

  /** The Peon tools of every ready server, without disabled and withheld ones. */
  tools(): readonly AnyTool[] {
    return this.toolList;
  }

  /** Every ready server's tools by their Peon names, disabled ones too (the panel's toggles and tool cards). */
  named(): { readonly name: string; readonly server: string; readonly tool: string }[] {
    return [...this.table].map(([name, ref]) => ({ name, server: ref.server, tool: ref.tool }));
  }

  /** The disabled tools changed (the panel's toggles): the tool set follows now. */
  refresh(): void {
    this.changed();
  }

  /** The PIDs of running stdio servers (tests check nothing survives them). */
  pids(): number[] {
    return this.servers.flatMap((s) => (s.pid ? [s.pid] : []));
  }

  /**
   * Starts what may start (once), asks for what waits for the person (each card once a
   * session), and resolves when every start in flight has ended — ready or failed.
   */
  async ready(signal: AbortSignal): Promise<void> {
    if (this.settled()) return;
    this.started ??= Promise.all(this.servers.map((s) => this.begin(s, signal, false))).then(() => {
      this.startedAll = true;
    });
    await this.started;
    for (const server of this.servers) {
      if (server.state === 'needs-approval' && !this.asked.has(`server:${server.config.name}`)) await this.begin(server, signal, true);
      if (server.withheld().length > 0 && !this.asked.has(`tools:${server.config.name}`)) await this.reviewTools(server, signal);
    }
  }

  /** Nothing to start, join or ask: every call before a tool call need not wait (B16: each call asks this). */
  settled(): boolean {
    if (!this.startedAll) return false;
    for (const server of this.servers) {
      if (server.state === 'starting') return false;
      if (server.state === 'needs-approval' && !this.asked.has(`server:${server.config.name}`)) return false;
      if (server.hasWithheld() && !this.asked.has(`tools:${server.config.name}`)) return false;
    }
    return true;
  }

  /**
   * Decides whether a server may start, asks when `ask` and it waits for approval, and
   * starts it. A project's server is approved on what it will run, before anything is
   * asked of the person for it (its `${input:…}` prompts are the repository's text).
   */
  private async begin(server: McpServer, signal: AbortSignal, ask: boolean): Promise<void> {
    const { config } = server;
    // Restricted Mode: no MCP tool may run, so no server starts — not even the person's own, whose folder would be the untrusted one.
    if (!this.options.trusted) return server.hold('untrusted', 'This workspace is not trusted (Restricted Mode): no MCP server starts.');
    if (this.options.hooks.disabledServers?.().includes(config.name)) return server.hold('disabled');
    let envFileText: string | undefined;
    let fresh = false;
    if (config.project) {
      const facts = await this.factsOf(config);
      envFileText = facts.envFile?.text;
      const hash = approvalHash(config, envFileText === undefined ? undefined : Buffer.from(envFileText, 'utf8'), facts.programs);
      if (!this.options.trust.serverApproved(this.root ?? '', config.name, hash)) {
        if (!ask) return server.hold('needs-approval', this.waitingText(config, hash));
        this.asked.add(`server:${config.name}`);
        const approved = await this.card(config.name, serverCard(config, facts, this.options.trust.serverKnown(this.root ?? '', config.name), this.cwdOf(facts.shown)), signal);
        if (!approved) return server.hold('needs-approval', `${this.waitingText(config, hash)} Not approved this session: approve it from the MCP section (or run the CLI with --approve all).`);
        this.options.trust.approveServer(this.root ?? '', config.name, hash);
        fresh = true;
      }
    }
    const launch = await this.launchOf(server, signal, envFileText);
    if (!launch) return;
    await server.start({ ...launch, fresh }, signal);
  }

  private inputKey(config: McpServerConfig, id: string): string {
    // A project's input is its own: another workspace's server of the same name never gets the answer.
    return `input:${config.project ? `${this.root ?? ''}\0${config.source}` : '(user)'}\0${config.name}\0${id}`;
  }

  private variables() {
    return { ...(this.root ? { workspaceFolder: this.root } : {}), home: this.options.home, env: this.options.hostEnv };
  }

  private cwdOf(transport: McpTransport): string {
    return transport.kind === 'stdio' && transport.cwd !== undefined ? path.resolve(this.root ?? this.options.home, transport.cwd) : (this.root ?? this.options.home);
  }

  /** What a project's server will run, for its card and its approval's hash; nothing is asked. */
  private async factsOf(config: McpServerConfig): Promise<LaunchFacts> {
    const stored = new Map<string, string>();
    for (const input of config.inputs) {
      const value = await this.options.hooks.secrets.get(this.inputKey(config, input.id));
      if (value !== undefined) stored.set(input.id, value);
    }
    const shown = expandForDisplay(config, { ...this.variables(), input: (id) => stored.get(id) });
    return launchFacts(config, shown, this.root ?? this.options.home, this.cwdOf(shown), this.options.hostEnv);
  }

  private waitingText(config: McpServerConfig, hash: string): string {
    const known = this.options.trust.serverKnown(this.root ?? '', config.name);
    return known && !this.options.trust.serverApproved(this.root ?? '', config.name, hash)
      ? `Its configuration in ${config.source} changed since you approved it: it waits for your approval again.`
      : `A server from ${config.source}: it starts once you approve it.`;
  }

  /**
   * The configuration with its variables filled in (asking for missing inputs), or
   * undefined with the server held. `approvedEnvFile`: a project server's envFile as it
   * was when approved — what runs is what the card showed.
   */
  private async launchOf(server: McpServer, signal: AbortSignal, approvedEnvFile?: string): Promise<ServerLaunch | undefined> {
    const { config } = server;
    const { hooks, settings } = this.options;
    const inputs = new Map<string, string>();
    for (const input of config.inputs) {
      const key = this.inputKey(config, input.id);
      let value = await hooks.secrets.get(key);
      if (value === undefined && hooks.askInput) {
        value = await hooks.askInput(config.name, input, signal);
        if (value !== undefined) await hooks.secrets.set(key, value);
      }
      if (value !== undefined) inputs.set(input.id, value);
    }
    const expanded = expandServer(config, { ...this.variables(), input: (id) => inputs.get(id) });
    if (!expanded.ok) {
      server.hold(expanded.missingInputs.length > 0 ? 'needs-input' : 'failed', [...expanded.missingInputs.map((id) => `it needs the input "${id}"`), ...expanded.problems].join('; '));
      return undefined;
    }
    const transport = expanded.transport;
    // The status shows it as the card does: a password input as dots.
    const shown = expandForDisplay(config, { ...this.variables(), input: (id) => inputs.get(id) });
    this.launches.set(config.name, shown.kind === 'stdio' ? commandLine(shown.command, shown.args) : shown.url);
    const envFile = transport.kind === 'stdio' && transport.envFile !== undefined ? (approvedEnvFile ?? envFileFacts(path.resolve(this.root ?? '.', transport.envFile), this.root ?? this.options.home).text) : undefined;
    if (transport.kind === 'stdio' && transport.envFile !== undefined && envFile === undefined) {
      server.hold('failed', `its envFile ${transport.envFile} cannot be read (a regular file of at most 1 MiB)`);
      return undefined;
    }
    const cwd = this.cwdOf(transport);
    return {
      transport: transport.kind === 'stdio' ? { ...transport, cwd } : transport,
      trustScope: config.project ? (this.root ?? '') : '(user)',
      connect: {
        cwd,
        ...(envFile !== undefined ? { envFileValues: parseEnvFile(envFile) } : {}),
        hostEnv: this.options.hostEnv,
        initTimeoutMs: seconds(settings['peon.mcp.startTimeoutSeconds'], 30),
        maxMessageBytes: (settings['peon.mcp.maxMessageMB'] ?? 16) * 1024 * 1024,
        roots: this.options.folders,
        version: this.options.version,
        ...(hooks.elicit ? { elicit: (params, s) => hooks.elicit!(config.name, params, s) } : {}),
        ...(hooks.authorizer && transport.kind === 'http' ? { authorizer: () => hooks.authorizer!(config, transport) } : {}),
      },
    };
  }

  private async reviewTools(server: McpServer, signal: AbortSignal): Promise<void> {
    this.asked.add(`tools:${server.config.name}`);
    const withheld = server.withheld();
    const changes = withheld.map((w) => ({ tool: w.tool, before: w.before, after: w.after }));
    // What the card shows is what an approval records (a list_changed while it is open does not slip in).
    const shown = new Map(withheld.map((w) => [w.tool, w.fingerprint]));
    if (await this.card(server.config.name, { kind: 'mcp-tools', server: server.config.name, changes }, signal)) server.approveWithheld(shown);
  }

  private async card(server: string, summary: ApprovalSummary, signal: AbortSignal): Promise<boolean> {
    const { approve, agent } = this.options.hooks;
    if (!approve) return false;
    const source = summary.kind === 'mcp-tools' ? 'an MCP tool changed since you approved it: withheld until you approve the change' : 'a project MCP server runs only once you approve it, exactly as configured';
    const reply = await approve({ tool: server, agent, assessment: { risk: 'process', writes: false, paths: [], summary }, permission: { decision: 'ask', mode: 'ask', source, reasons: [], grantable: [], sessionGrants: [] } }, signal);
    return reply.approved;
  }

  /** Approves a waiting server (the panel's button): the card again, even if denied before. */
  async approve(name: string, signal: AbortSignal): Promise<void> {
    const server = this.find(name);
    this.asked.delete(`server:${name}`);
    this.asked.delete(`tools:${name}`);
    if (server.withheld().length > 0) return this.reviewTools(server, signal);
    await this.begin(server, signal, true);
  }

  async restart(name: string, signal: AbortSignal): Promise<void> {
    const server = this.find(name);
    await server.stop();
    this.asked.delete(`server:${name}`);
    await this.begin(server, signal, true);
  }

  async stop(name: string): Promise<void> {
    await this.find(name).stop('disabled');
  }

  private find(name: string): McpServer {
    const server = this.servers.find((s) => s.config.name === name);
    if (!server) throw new Error(`No MCP server is named ${JSON.stringify(name)}.`);
    return server;
  }

  private changed(): void {
    // The person's servers are named first: a project's tool can never take one of their names.
    const refs = this.servers.flatMap((s) => s.usable().map((t) => ({ server: s.config.name, tool: t.name, listed: t, priority: s.config.project ? 1 : 0 })));
    this.table = assignToolNames(refs, RESERVED);
    const disabled = new Set(this.options.hooks.disabledTools?.() ?? []);
    const next: AnyTool[] = [];
    for (const [name, ref] of this.table) {
      if (disabled.has(name)) continue;
      const listed = ref.listed;
      const key = `${name}\0${ref.server}\0${toolFingerprint(listed)}`;
      let tool = this.built.get(key);
      if (!tool) {
        const made = mcpTool(name, ref, listed, this);
        if ('error' in made) continue; // its schema does not compile: never called unchecked
        this.built.set(key, (tool = made));
      }
      next.push(tool);
    }
    if (next.length !== this.toolList.length || next.some((t, i) => t !== this.toolList[i])) {
      this.toolList = next;
      this.version++;
    }
    this.options.hooks.onChange?.();
  }

  /** One call, routed by the reference its tool holds. */
  async call(ref: McpToolRef, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
    const server = this.find(ref.server);
    const label = `${ref.server} › ${ref.tool}`;
    // A tool withheld (or gone) since the registry was built is refused, never called.
    if (!server.offers(ref.tool)) throw new ToolError('unavailable', `${label} is not offered now: ${server.withheld().some((w) => w.tool === ref.tool) ? 'it changed since it was approved, and waits for approval again' : 'the server no longer lists it'}.`);
    try {
      const connection = server.readyNow() ?? (await server.ready(ctx.signal));
      const raw = await connection.callTool(ref.tool, input, seconds(ctx.settings['peon.mcp.timeoutSeconds'], 60), ctx.signal, ctx.onProgress);
      return mapCallResult(raw, label, ctx.limits.maxOutputChars);
    } catch (error) {
      if (error instanceof McpError) throw new ToolError(error.code, error.message, { server: ref.server, tool: ref.tool });
      throw error;
    }
  }

  /** Stops every server (and all each one started). */
  async dispose(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
  }
}
