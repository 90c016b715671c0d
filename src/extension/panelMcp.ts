// The window's MCP servers in the panel (DESIGN.md §4 "MCP tools", §7): one McpServers
// shared by the panel's chats, made when a chat first needs it (activation starts and
// awaits nothing, PERF.md B12) and made anew when Workspace Trust or the servers'
// configuration changes, the old set stopped. The MCP section shows each server's state
// and tools from the statuses posted on every change; its buttons approve, restart and
// turn servers and tools on or off for this workspace (kept in the workspace's state).
// Every name the webview sends is looked up among the servers; nothing else is used.
import type { McpHooks, McpServers } from '../core/conversation/index';
import type { SettingValues } from '../core/settings';
import { argumentLine, cutText as cut } from '../shared/format';
import type { HostMessage, McpServerInfo } from '../shared/messages';

/** The panel's own hooks; the face adds VS Code's (approvals, secrets, input boxes, questions). */
export type PanelMcpHooks = Required<Pick<McpHooks, 'onChange' | 'disabledServers' | 'disabledTools'>>;

/** A list of names kept for this workspace (VS Code's workspaceState). */
export interface NameList {
  get(): readonly string[];
  set(names: readonly string[]): PromiseLike<void>;
}

export interface McpPanelFace {
  /** The window's servers, made now with these hooks (nothing starts); undefined with no folder open. */
  open(hooks: PanelMcpHooks): McpServers | undefined;
  /** The resolved peon.* settings now. */
  settings(): SettingValues;
  readonly disabledServers: NameList;
  readonly disabledTools: NameList;
  /** The servers were made anew: the chat's conversation takes them. */
  onReplaced(servers: McpServers | undefined): void;
  warn(text: string): void;
}

/** What a tool card reads for an MCP tool: "server › tool" and its input as one line. */
export interface ToolTitle {
  readonly title: string;
  readonly args: string;
}

/** The settings a running server was started with: a change to them makes the set anew. */
const LAUNCH_SETTINGS = ['peon.mcp.servers', 'peon.mcp.startTimeoutSeconds', 'peon.mcp.maxMessageMB'] as const;
const MAX_SERVERS = 200;
const MAX_TOOLS = 1000;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PanelMcp {
  private current: McpServers | undefined;
  private made = false;
  /** Cancels what the section's buttons started (a card up, a start) when the set is replaced. */
  private controller = new AbortController();
  /** Old sets still stopping: deactivation waits for them. */
  private readonly stopping = new Set<Promise<void>>();
  private launchKey: string;
  private trusted: boolean;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly face: McpPanelFace,
    trusted: boolean,
  ) {
    this.launchKey = this.keyOf(face.settings());
    this.trusted = trusted;
  }

  /** The window's servers, made on first use. */
  servers(): McpServers | undefined {
    if (!this.made) {
      this.made = true;
      const hooks: PanelMcpHooks = {
        onChange: () => this.postStatus(),
        disabledServers: () => this.face.disabledServers.get(),
        disabledTools: () => this.face.disabledTools.get(),
      };
      this.current = this.face.open(hooks);
    }
    return this.current;
  }

  /**
   * Settings or trust changed: the set is made anew only when what its servers start
   * from changed (their configuration, its launch limits, trust); otherwise the section
   * is posted again (peon.mcp.maxTools).
   */
  reconsider(settings: SettingValues, trusted: boolean): void {
    const key = this.keyOf(settings);
    if (key === this.launchKey && trusted === this.trusted) return this.postStatus();
    this.launchKey = key;
    this.trusted = trusted;
    this.replace();
  }

  /** A project's MCP file changed on disk: the set is made anew from it. */
  replace(): void {
    if (!this.made) return this.postStatus();
    this.controller.abort();
    this.controller = new AbortController();
    const old = this.current;
    this.made = false;
    this.current = undefined;
    if (old) this.retire(old);
    this.face.onReplaced(this.servers());
    this.postStatus();
  }

  /** "Start now": what may start starts, what waits for the person is put on its card. */
  async start(): Promise<void> {
    await this.act('start the MCP servers', (servers, signal) => servers.ready(signal));
  }

  async server(name: string, action: 'approve' | 'restart' | 'enable' | 'disable'): Promise<void> {
    const servers = this.servers();
    const status = servers?.statuses().find((s) => s.name === name);
    if (!servers || !status) {
      this.face.warn(`Ignored "${action}" for the MCP server "${cut(name, 200)}": there is no such server.`);
      return this.postStatus();
    }
    const disabled = this.face.disabledServers.get();
    switch (action) {
      case 'approve':
        return this.act(`approve ${name}`, (s, signal) => s.approve(name, signal));
      case 'restart':
        return this.act(`restart ${name}`, (s, signal) => s.restart(name, signal));
      case 'disable':
        if (!disabled.includes(name)) await this.face.disabledServers.set([...disabled, name]);
        return this.act(`stop ${name}`, (s) => s.stop(name));
      case 'enable':
        await this.face.disabledServers.set(disabled.filter((n) => n !== name));
        // Never started yet: it starts with the others (the next message, or Start now).
        if (status.state !== 'disabled') return this.postStatus();
        return this.act(`start ${name}`, (s, signal) => s.restart(name, signal));
    }
  }

  /** One tool on or off for this workspace, by its Peon name. */
  async tool(name: string, enabled: boolean): Promise<void> {
    const servers = this.servers();
    if (!servers?.named().some((t) => t.name === name)) {
      this.face.warn(`Ignored turning the MCP tool "${cut(name, 100)}" ${enabled ? 'on' : 'off'}: no ready server has it.`);
      return this.postStatus();
    }
    const off = this.face.disabledTools.get().filter((n) => n !== name);
    await this.face.disabledTools.set(enabled ? off : [...off, name]);
    servers.refresh();
  }

  /** What a tool card reads for one of the servers' tools; undefined for any other tool. */
  titleOf(name: string, rawArgs: string): ToolTitle | undefined {
    const ref = this.made ? this.current?.named().find((t) => t.name === name) : undefined;
    if (!ref) return undefined;
    let args = rawArgs;
    try {
      const input: unknown = JSON.parse(rawArgs);
      if (input && typeof input === 'object' && !Array.isArray(input)) args = argumentLine(input as Record<string, unknown>);
    } catch {
      // malformed arguments are shown as they came; the call is not run
    }
    return { title: `${ref.server} › ${ref.tool}`, args };
  }

  /** The MCP section's message (none configured: an empty one, and the section stays hidden). */
  status(): Extract<HostMessage, { type: 'mcp' }> {
    const maxTools = this.face.settings()['peon.mcp.maxTools'] ?? 64;
    const servers = this.made ? this.current : undefined;
    if (!servers) return { type: 'mcp', servers: [], problems: [], enabledTools: 0, maxTools };
    const offServers = new Set(this.face.disabledServers.get());
    const offTools = new Set(this.face.disabledTools.get());
    const named = servers.named();
    const infos: McpServerInfo[] = servers
      .statuses()
      .slice(0, MAX_SERVERS)
      .map((s) => {
        const { why, stderr } = splitStderr(s.detail, s.stderr);
        return {
          name: cut(s.name, 200),
          source: s.source,
          project: s.project,
          // Turned off before anything started reads as what it is.
          state: s.state === 'stopped' && offServers.has(s.name) ? 'disabled' : s.state,
          launch: cut(s.launch, 20_000),
          ...(why ? { detail: cut(why, 4000) } : {}),
          ...(stderr ? { stderr: tail(stderr, 8000) } : {}),
          tools: named
            .filter((t) => t.server === s.name)
            .slice(0, MAX_TOOLS)
            .map((t) => ({ name: t.name, tool: cut(t.tool, 200), enabled: !offTools.has(t.name) })),
          withheld: s.withheld.slice(0, MAX_TOOLS).map((w) => cut(w, 200)),
          disabled: offServers.has(s.name),
        };
      });
    const problems = servers.problems.slice(0, 200).map((p) => cut(`${p.source}${p.server ? ` (server "${p.server}")` : ''}: ${p.reason}`, 4000));
    return { type: 'mcp', servers: infos, problems, enabledTools: servers.tools().length, maxTools };
  }

  postStatus(): void {
    this.post(this.status());
  }

  /** Stops every server, the replaced sets' too. */
  async dispose(): Promise<void> {
    this.controller.abort();
    const last = this.current;
    this.current = undefined;
    if (last) this.retire(last);
    await Promise.all([...this.stopping]);
  }

  private retire(servers: McpServers): void {
    const stopped: Promise<void> = servers.dispose().catch((error: unknown) => this.face.warn(`An MCP server did not stop cleanly: ${message(error)}`));
    this.stopping.add(stopped);
    void stopped.finally(() => this.stopping.delete(stopped));
  }

  private async act(what: string, run: (servers: McpServers, signal: AbortSignal) => Promise<void>): Promise<void> {
    const servers = this.servers();
    if (!servers) return;
    try {
      await run(servers, this.controller.signal);
    } catch (error) {
      this.face.warn(`Could not ${what}: ${message(error)}`);
    }
    this.postStatus();
  }

  private keyOf(settings: SettingValues): string {
    return JSON.stringify(LAUNCH_SETTINGS.map((k) => settings[k] ?? null));
  }
}

/** How a server's error ends with its stderr (src/core/mcp/mcpClient.ts `explain`, for the model): shown apart, collapsed. */
const STDERR_HEADING = '\nLast lines of its stderr:\n';

function splitStderr(detail: string | undefined, stderr: string | undefined): { why: string | undefined; stderr: string | undefined } {
  const at = detail?.indexOf(STDERR_HEADING) ?? -1;
  if (!detail || at < 0) return { why: detail, stderr };
  return { why: detail.slice(0, at), stderr: stderr || detail.slice(at + STDERR_HEADING.length) };
}

/** The last `max` characters: a stderr's end says why it stopped. */
const tail = (text: string, max: number): string => (text.length > max ? `…${text.slice(text.length - max + 1)}` : text);
