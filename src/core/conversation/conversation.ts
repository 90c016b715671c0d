// The one composition root (DESIGN.md §1): a conversation of one agent type over one
// workspace, assembled here and nowhere else — the registry for its type, the call
// pipeline, limits, ripgrep, system prompt, compaction policy, price — and the state it
// owns: history, mode, grants, todos. A face (panel, `peon run`, `peon tool`) gives only
// host hooks: approver, question asker, progress, diagnostics, unsaved-buffer check,
// storage folders.
import { runAgentTurn, type FinalReason, type LoopEvent } from '../agent/loop';
import type { McpServers } from '../mcp/mcpServers';
import { memoryAccess } from '../memory/memoryAccess';
import { memoryStore } from '../memory/memoryStore';
import { closingSummary } from '../memory/sessionSummary';
import type { SkillCatalog } from '../skills/skillCatalog';
import { sessionSkills, skillSettingsChanged } from '../skills/sessionSkills';
import { skillListing } from '../skills/skillList';
import { expandSlashSkills } from '../skills/slashCommand';
import type { AgentInfo } from '../../shared/messages';
import { AgentStore, type LoadedAgent } from '../sessions/agentStore';
import { ChildGrants, type SessionGrants } from '../permissions/grants';
import { buildSystemPrompt } from '../agent/systemPrompt';
import type { HistoryItem, ModelClient, ToolSpec, Usage } from '../model/modelClient';
import { priceOf, windowOf, type Price } from '../model/modelInfo';
import type { Approver } from '../permissions/approvals';
import { modelJudge, type CommandJudge } from '../permissions/judgeModel';
import { permissionConfig, type PermissionConfig } from '../permissions/rules';
import { locateRipgrep, type LocateOptions } from '../search/ripgrep';
import type { SettingLayers, SettingValues } from '../settings';
import { Checkpoints } from '../checkpoints/checkpoints';
import { CommandSandbox, sandboxSettings } from '../sandbox/commandSandbox';
import type { SandboxView } from '../sandbox/describe';
import type { Mode, QuestionAsker, SubagentControl, ToolContext, WebAccess } from '../tools/contract';
import { DEFAULT_LIMITS } from '../tools/contract';
import type { ToolRegistry } from '../tools/registry';
import { TodoStore } from '../todos/todoStore';
import { FileSnapshots } from '../workspace/snapshots';
import { Trash } from '../workspace/trash';
import { Workspace } from '../workspace/workspace';
import { registryFor, startingMode, type AgentType } from './agentTypes';
import { CallPipeline, type ToolCallOutcome } from './pipeline';
import { answered } from './history';
import { MessageQueue } from './messageQueue';
import { remindersFor } from './reminders';
import { ConversationState, type SavedState } from './state';
import { Subagents, type ChildSpec } from './subagents';

/** What a face supplies: how to reach the person and the editor, and where to keep things. */
export interface ConversationHooks {
  readonly approve: Approver;
  /** Absent where nobody can answer (no terminal, --batch): askuserquestion is `unavailable`. */
  readonly ask?: QuestionAsker;
  /** Live output of the running call. */
  readonly onProgress?: (text: string) => void;
  /** The editor's diagnostics for a file (VS Code only). */
  readonly diagnostics?: (canonical: string) => readonly string[];
  /** Whether a file is open with unsaved changes (VS Code only). */
  readonly unsaved?: (canonical: string) => boolean;
  /** Each history item as it joins (the session saves it). */
  readonly onHistory?: (item: HistoryItem) => void;
  /** The history replaced whole (compaction). */
  readonly onReset?: (history: readonly HistoryItem[]) => void;
  /** The conversation's state changed (mode, grants): saved with the session, shown by the panel. */
  readonly onState?: (state: SavedState) => void;
  /** How webfetch and websearch reach the web: the person's proxy (read on every request). */
  readonly web?: WebAccess;
  /** Where subagents' transcripts are saved (a folder per session); undefined until known. */
  readonly agentsDir?: () => string | undefined;
  /** A subagent's record changed (status, spend, waiting): the strip shows it. */
  readonly onAgent?: (info: AgentInfo) => void;
  /** A subagent's loop events, for its transcript and the session's meter. */
  readonly onAgentEvent?: (name: string, event: LoopEvent) => void;
  /** Live output of a subagent's running call. */
  readonly onAgentProgress?: (name: string, text: string) => void;
}

/** A subagent's place in its session: built by Subagents, never by a face. */
export interface ChildLink {
  readonly subagents: Subagents;
  readonly spec: ChildSpec;
  /** What the person allowed for this session holds for its subagents too (a plan's grants are the child's own). */
  readonly grants: SessionGrants;
  /** The workspace's todo list, one for the session (the panel hears a child's change). */
  readonly todos: TodoStore;
  /** The ripgrep the session found. */
  readonly ripgrep: string | undefined;
  /** The session's sandbox (one private /tmp for its commands). */
  readonly sandbox: CommandSandbox;
  /** The session's checkpoints: a subagent's steps are the session's too. */
  readonly checkpoints: Checkpoints | undefined;
  /** The skills of the session (found when it started; again when trust or the skill settings change). */
  readonly skills: () => SkillCatalog;
}

export interface TurnOptions {
  /** Also stops the turn (a subagent's bounds, its parent's Stop). */
  readonly signal?: AbortSignal;
  /** Model turns at most (default 50). */
  readonly maxSteps?: number;
  /**
   * Do not end while background subagents this conversation started still run: wait
   * for them, then go on with their reports (a subagent, and `peon run`, whose outcome
   * would otherwise be lost).
   */
  readonly settle?: boolean;
  /**
   * Context the person attached to the prompt (the panel's chips: files, selections,
   * problems), as data: it follows the prompt in the same message, and is never read
   * for `/skill-name` or to rank skills.
   */
  readonly attached?: string;
  /**
   * The history ends with this turn's prompt already (the person asked for the answer
   * again): the turn runs from it, the prompt neither expanded nor added a second time.
   */
  readonly again?: boolean;
}

export interface ConversationSetup {
  readonly agentType?: AgentType;
  /** Who calls, on cards and in tool contexts: `main`, `cli`, a subagent's name. */
  readonly agent: string;
  readonly folders: readonly { readonly name?: string; readonly path: string }[];
  /** The resolved `peon.*` values, and the layers they came from (rules: project scope only tightens). */
  readonly settings: SettingValues;
  readonly layers: SettingLayers;
  /** Workspace Trust: untrusted means only read-only tools. Default trusted. */
  readonly trusted?: boolean;
  /** Where deleted files go (a folder in the host's storage). */
  readonly trashDir: string;
  /** Where ripgrep may be found (the bundled copy, VS Code's own). */
  readonly ripgrep?: LocateOptions;
  readonly hooks: ConversationHooks;
  /** A resumed conversation's history and state. */
  readonly history?: readonly HistoryItem[];
  readonly state?: SavedState;
  /** Cancels everything this conversation runs (the CLI's SIGINT/SIGTERM). */
  readonly signal?: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
  /** A resumed session's subagents (their records and histories); one that was running reads interrupted. */
  readonly agents?: readonly LoadedAgent[];
  /** Set by Subagents for a child conversation. */
  readonly child?: ChildLink;
  /** The person's home folder, where their own skills are (default: this process's). */
  readonly home?: string;
  /**
   * The workspace's MCP servers (one set per window or CLI process, shared by its
   * conversations): their tools join the registry; the main conversation starts them.
   */
  readonly mcp?: McpServers;
  /** Peon's own state (the face's storage): hidden from sandboxed commands like the person's credentials. */
  readonly privateDirs?: readonly string[];
  /**
   * Where the workspace's checkpoints are kept (Peon's storage, never the workspace), and
   * whether a step waits for the first snapshot (the CLI) or goes untracked until it is
   * taken (the panel); absent: none are taken.
   */
  readonly checkpoints?: { readonly dir: string; readonly waitForFirstScan?: boolean };
}

export interface TurnResult {
  readonly reason: FinalReason;
  readonly text: string;
  readonly usage: Usage;
}

export class Conversation {
  readonly workspace: Workspace;
  readonly type: AgentType;
  private registry: ToolRegistry;
  private toolSpecs: readonly ToolSpec[];
  private trusted: boolean;
  readonly state: ConversationState;
  readonly todos: TodoStore;
  readonly history: HistoryItem[];
  /** Every subagent of this session (a child shares its root's). */
  readonly subagents: Subagents;
  /** What the person typed during a turn: it joins the history before the next model request. */
  readonly queue = new MessageQueue();
  private permissions: PermissionConfig;
  private settings: SettingValues;
  private layers: SettingLayers;
  private context: Omit<ToolContext, 'signal'>;
  private direct: CallPipeline;
  private running: AbortController | undefined;
  /** Why this session keeps no checkpoints, when it could not (shown with the warnings). */
  private checkpointProblem: string | undefined;
  /** The pipeline of the turn in flight: new settings reach its next call. */
  private live: CallPipeline | undefined;
  private contextTokens = 0;
  private catalog: SkillCatalog;
  /** The workspace's MCP servers: the setup's, until the face replaces them (useMcp). */
  private mcp: McpServers | undefined;
  /** The MCP tool set the registry holds (McpServers.version). */
  private mcpVersion: number;

  constructor(private readonly setup: ConversationSetup) {
    this.type = setup.agentType ?? 'orchestrator';
    this.workspace = new Workspace(setup.folders.map((f) => ({ ...(f.name ? { name: f.name } : {}), path: f.path })));
    this.trusted = setup.trusted ?? true;
    this.mcp = setup.mcp;
    this.mcpVersion = setup.mcp?.version ?? 0;
    this.registry = this.buildRegistry();
    this.toolSpecs = specsOf(this.registry);
    this.permissions = permissionConfig(setup.layers);
    this.settings = setup.settings;
    this.layers = setup.layers;
    const startMode = setup.child?.spec.planInherited ? 'plan' : startingMode(this.type);
    const child = setup.child;
    this.state = new ConversationState(setup.state ?? { mode: startMode, grants: [] }, child?.grants, child ? () => child.spec.parentPlanning() : undefined);
    if (setup.hooks.onState) this.state.onChange(setup.hooks.onState);
    this.todos = setup.child?.todos ?? new TodoStore(this.workspace.root.root);
    this.catalog = setup.child?.skills() ?? this.discoverSkills();
    // A call cut off by a closed window gets its result, so the next request is valid.
    this.history = answered(setup.history ?? []);
    this.subagents = setup.child?.subagents ?? this.rootSubagents();
    const { hooks } = setup;
    this.context = {
      workspace: this.workspace,
      timeoutMs: timeoutOf(setup.settings),
      limits: DEFAULT_LIMITS,
      snapshots: new FileSnapshots(),
      trash: new Trash(setup.trashDir),
      agent: setup.agent,
      ripgrep: setup.child ? setup.child.ripgrep : locateRipgrep(setup.ripgrep ?? {}),
      sandbox: setup.child?.sandbox ?? this.rootSandbox(),
      ...withCheckpoints(setup.child ? setup.child.checkpoints : rootCheckpoints(setup, this.workspace, this.trusted, (problem) => (this.checkpointProblem = problem))),
      settings: setup.settings,
      todos: this.todos,
      skills: this.catalog,
      ...(hooks.ask ? { ask: hooks.ask } : {}),
      ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      ...(hooks.unsaved ? { unsaved: hooks.unsaved } : {}),
      ...(hooks.diagnostics ? { diagnostics: hooks.diagnostics } : {}),
      ...(hooks.web ? { web: hooks.web } : {}),
      ...(setup.env ? { env: setup.env } : {}),
    };
    this.direct = this.pipeline(setup.signal ?? new AbortController().signal);
  }

  /** The session's checkpoints (DESIGN.md §10): what each step changed, to show and revert; absent where nothing can change files. */
  get checkpoints(): Checkpoints | undefined {
    return this.context.checkpoints;
  }

  /** How this conversation's commands will run (probed now, not at the first command). */
  sandboxStatus(): Promise<SandboxView> | undefined {
    return this.context.sandbox?.status();
  }

  /** The session's sandbox for commands: its settings read on every command, Peon's state hidden. */
  private rootSandbox(): CommandSandbox {
    return new CommandSandbox({
      settings: () => sandboxSettings(this.settings ?? this.setup.settings),
      folders: this.workspace.folders.map((f) => f.root),
      env: this.setup.env ?? process.env,
      ...(this.setup.privateDirs ? { privateDirs: this.setup.privateDirs } : {}),
      ...(this.setup.home ? { home: this.setup.home } : {}),
    });
  }

  /** Its type's table, bound: a tool outside it does not exist for this agent. */
  private buildRegistry(): ToolRegistry {
    return registryFor(this.type, { trusted: this.trusted, planInherited: this.setup.child?.spec.planInherited ?? false, memory: this.memoryOn, extra: this.mcp?.tools() ?? [] });
  }

  /**
   * The MCP servers' tools as they are now: the main conversation first starts what may
   * start and puts what waits for the person on cards (once a session); a changed tool
   * set rebuilds the registry before the next call or request.
   */
  private async syncMcp(signal: AbortSignal): Promise<void> {
    const mcp = this.mcp;
    if (!mcp?.configured) return;
    if (!this.setup.child && !mcp.settled()) await mcp.ready(signal);
    if (mcp.version === this.mcpVersion) return;
    this.mcpVersion = mcp.version;
    this.registry = this.buildRegistry();
    this.toolSpecs = specsOf(this.registry);
    this.direct = this.pipeline(this.setup.signal ?? new AbortController().signal);
  }

  /**
   * The face replaced its MCP servers (the panel rebuilds them when Workspace Trust or
   * their configuration changes): their tools from the next call or request on, the old
   * set's gone at once. A running subagent keeps the set it started with.
   */
  useMcp(mcp: McpServers | undefined): void {
    if (mcp === this.mcp) return;
    this.mcp = mcp;
    this.mcpVersion = mcp?.version ?? 0;
    this.registry = this.buildRegistry();
    this.toolSpecs = specsOf(this.registry);
    this.direct = this.pipeline(this.setup.signal ?? new AbortController().signal);
  }

  private get memoryOn(): boolean {
    return (this.settings ?? this.setup.settings)['peon.memory.enabled'] ?? true;
  }

  /** The skills of this session: found once, when it starts (again only when trust or the skill settings change). */
  private discoverSkills(): SkillCatalog {
    return sessionSkills(this.settings ?? this.setup.settings, { roots: this.workspace.folders.map((f) => f.root), trusted: this.trusted, ...(this.setup.home ? { home: this.setup.home } : {}) });
  }

  /** The skills found for this session (the composer offers them after `/`). */
  get skills(): SkillCatalog {
    return this.catalog;
  }

  /**
   * Saves what this conversation did to memory as a session summary (the panel closes a
   * chat): its id, or undefined when memory is off or nothing was answered.
   */
  async closeToMemory(): Promise<string | undefined> {
    // A restricted workspace gets nothing written into it by Peon on its own.
    if (!this.memoryOn || !this.trusted || this.setup.child) return undefined;
    const summary = closingSummary(this.history);
    if (!summary) return undefined;
    return (await memoryStore(this.workspace.root.root).write('summary', summary.body, { title: summary.title, source: 'closed chat' })).id;
  }

  /** The session's subagents, owned by the main conversation; each child is assembled here, like it. */
  private rootSubagents(): Subagents {
    const { hooks } = this.setup;
    const agentsDir = hooks.agentsDir;
    let store: AgentStore | undefined;
    const subagents: Subagents = new Subagents({
      settings: () => this.settings,
      open: (spec): Conversation => this.openChild(spec, subagents),
      todos: this.todos,
      rootName: this.setup.agent,
      rootMode: () => this.state.current,
      // Known once (a panel chat's folder exists from its first message), then fixed: a child's last lines never land in another session's folder.
      store: () => {
        if (store) return store;
        const dir = agentsDir?.();
        if (dir) store = new AgentStore(dir);
        return store;
      },
      ...(this.setup.signal ? { signal: this.setup.signal } : {}),
      ...(hooks.onAgent ? { onAgent: hooks.onAgent } : {}),
      ...(hooks.onAgentEvent ? { onAgentEvent: hooks.onAgentEvent } : {}),
      ...(hooks.onAgentProgress ? { onAgentProgress: hooks.onAgentProgress } : {}),
    });
    if (this.setup.agents) subagents.restore(this.setup.agents);
    return subagents;
  }

  /** A child conversation: the same composition root, its own type, history and mode; the same gate, person and session grants. */
  private openChild(spec: ChildSpec, subagents: Subagents): Conversation {
    const { hooks } = this.setup;
    const label = { agent: spec.name, agentType: spec.type };
    return new Conversation({
      ...this.setup,
      mcp: this.mcp,
      agentType: spec.type,
      agent: spec.name,
      settings: this.settings,
      layers: this.layers,
      trusted: this.trusted,
      history: spec.history,
      state: undefined,
      agents: undefined,
      child: { subagents, spec, grants: new ChildGrants(this.state.grants, spec.name), todos: this.todos, ripgrep: this.context.ripgrep, sandbox: this.context.sandbox!, checkpoints: this.context.checkpoints, skills: () => this.catalog },
      hooks: {
        ...(hooks.diagnostics ? { diagnostics: hooks.diagnostics } : {}),
        ...(hooks.unsaved ? { unsaved: hooks.unsaved } : {}),
        ...(hooks.web ? { web: hooks.web } : {}),
        onHistory: spec.onHistory,
        onReset: spec.onReset,
        onProgress: spec.onProgress,
        // Its approvals and questions go to the same person, labelled with its name and type, and say it waits.
        approve: async (request, signal) => {
          spec.onWaiting('approval');
          try {
            return await hooks.approve({ ...request, ...label }, signal);
          } finally {
            spec.onWaiting(undefined);
          }
        },
        ...(hooks.ask
          ? {
              ask: async (request, signal) => {
                spec.onWaiting('question');
                try {
                  return await hooks.ask!({ ...request, ...label }, signal);
                } finally {
                  spec.onWaiting(undefined);
                }
              },
            }
          : {}),
      },
    });
  }

  /**
   * New settings for the turns to come (the person edited them): rules, limits and the
   * model's options. History, state, snapshots and todos stay.
   */
  configure(settings: SettingValues, layers: SettingLayers, trusted = this.trusted): void {
    const before = this.settings;
    const memoryWas = this.memoryOn;
    this.settings = settings;
    // Workspace Trust granted (or withdrawn) while the chat goes on: its tools and skills follow.
    const trustChanged = trusted !== this.trusted;
    this.trusted = trusted;
    if (this.setup.child) this.catalog = this.setup.child.skills(); // its root found them again first
    else if (trustChanged || skillSettingsChanged(before, settings)) this.catalog = this.discoverSkills();
    if (trustChanged || memoryWas !== this.memoryOn) {
      this.registry = this.buildRegistry();
      this.toolSpecs = specsOf(this.registry);
    }
    this.layers = layers;
    this.permissions = permissionConfig(layers);
    this.context = { ...this.context, settings, timeoutMs: timeoutOf(settings), skills: this.catalog };
    this.direct = this.pipeline(this.setup.signal ?? new AbortController().signal);
    this.live?.reconfigure(settings, timeoutOf(settings), this.permissions, this.catalog);
    // A running subagent follows the person's settings as they change, like its session.
    if (!this.setup.child) for (const child of this.subagents.running()) child.configure(settings, layers, trusted);
  }

  /** Plan mode or not, now (a subagent's follows the agents above it). */
  get mode(): Mode {
    return this.state.current;
  }

  /** A subagent's task ended: its own grants leave the session's list. */
  close(): void {
    if (this.state.grants instanceof ChildGrants) this.state.grants.detach();
  }

  /** Who this conversation is on cards and in reports: `main`, `cli`, a subagent's name. */
  get name(): string {
    return this.setup.agent;
  }

  /** The tools this conversation may call now. */
  get tools(): ToolRegistry {
    return this.registry;
  }

  get toolNames(): string[] {
    return this.registry.list().map((t) => t.name);
  }

  /** What the model is shown of them. */
  get specs(): readonly ToolSpec[] {
    return this.toolSpecs;
  }

  /** Warnings about the settings (a corrupt rule fails closed), for the face to show. */
  get warnings(): readonly string[] {
    return [...this.permissions.warnings, ...this.catalog.warnings, ...(this.checkpointProblem ? [this.checkpointProblem] : [])];
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Stops the turn in flight — its calls cancelled, its cards and questions withdrawn — and every subagent. */
  stop(): void {
    this.running?.abort();
    if (!this.setup.child) this.subagents.stopAll();
  }

  /**
   * The history cut back to its first `length` items: a message of the person's edited
   * (the conversation goes on from before it) or an answer asked for again. Never during a turn.
   */
  rewind(length: number): void {
    if (this.running) throw new Error('The conversation cannot be rewound while a turn runs.');
    this.history.splice(Math.max(0, length));
    // The last request's size no longer says how full the context is; the next one will.
    this.contextTokens = 0;
  }

  /** One tool call outside a model turn (`peon tool`), in order with the others. */
  async call(name: string, input: unknown): Promise<ToolCallOutcome> {
    // Servers settled and their tools in the registry already (the usual case): nothing to wait for.
    if (this.mcp?.configured && !(this.mcp.version === this.mcpVersion && this.mcp.settled())) await this.syncMcp(this.setup.signal ?? NEVER);
    return this.direct.call(name, input);
  }

  /** The registry with the MCP servers' tools once they started (`peon tools`). */
  async currentTools(): Promise<ToolRegistry> {
    await this.syncMcp(this.setup.signal ?? new AbortController().signal);
    return this.registry;
  }

  /** One user prompt, run by the agent loop to its end. */
  async turn(prompt: string, client: ModelClient, onEvent: (event: LoopEvent) => void, options: TurnOptions = {}): Promise<TurnResult> {
    if (this.running) throw new Error('A turn is already running in this conversation.');
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, ...(this.setup.signal ? [this.setup.signal] : []), ...(options.signal ? [options.signal] : [])]);
    this.running = controller;
    try {
      await this.syncMcp(signal);
      const { hooks } = this.setup;
      const settings = this.settings;
      const judge = settings['peon.permission.judge'] ? modelJudge(client, signal) : undefined;
      const name = this.setup.agent;
      const control = this.subagentControl(client);
      const session = this.pipeline(signal, judge, control, client);
      this.live = session;
      // `/skill-name` in the person's message loads the skill (or starts its subagent), as loadskill would. A
      // subagent's prompt is the model's, never the person's: it starts nothing.
      const last = this.history.at(-1);
      const again = options.again && last?.role === 'user' ? last.text : undefined;
      const expanded =
        again === undefined && this.registry.get('loadskill') && !this.setup.child ? await expandSlashSkills(prompt, this.catalog, { subagents: control, signal }) : { text: prompt, uses: [] };
      for (const use of expanded.uses) onEvent({ type: 'skill', ...use });
      const skills = this.registry.get('loadskill') || this.registry.get('read_skill') ? skillListing(this.catalog.list(), prompt, settings['peon.skills.promptChars'] ?? 8000) : '';
      const run = (text: string, maxSteps: number) =>
        runAgentTurn(this.history, text, {
          client,
          session,
          system: buildSystemPrompt({ workspace: this.workspace, tools: this.specs, date: new Date(), type: this.type, skills, ...(this.setup.child ? { subagent: { name, parent: this.setup.child.spec.parent } } : {}) }),
          tools: this.specs,
          // The todo list rides along for an agent that keeps it (an explorer has no todo tools).
          reminders: () => remindersFor(this.state.current, this.registry.get('todoread') ? this.todos : undefined, this.registry.get('exitplanmode') !== undefined),
          // What the person typed meanwhile, and a background subagent that ended: each joins the next request.
          incoming: () => [...(this.setup.child ? [] : this.queue.drain().map((m) => ({ text: m.text, queued: m.id }))), ...this.subagents.drain(name)],
          signal,
          maxSteps,
          contextTokens: this.contextTokens,
          compaction: {
            contextWindow: windowOf(client),
            threshold: settings['peon.compaction.threshold'] ?? 0.8,
            keepTurns: 2,
            ...(this.memoryOn && this.trusted ? { memoryRoot: this.workspace.root.root } : {}),
            ...(hooks.onReset ? { onCompacted: hooks.onReset } : {}),
          },
          onEvent,
          ...(hooks.onHistory ? { onHistory: hooks.onHistory } : {}),
          ...withPrice(settings, client),
        });
      let steps = options.maxSteps ?? 50;
      let result = await run(again ?? (options.attached ? `${expanded.text}\n\n${options.attached}` : expanded.text), steps);
      steps -= result.steps;
      while (options.settle && result.reason === 'end_turn' && this.subagents.hasOpen(name) && steps > 0) {
        await this.subagents.settled(name, signal);
        if (signal.aborted) break; // the reports stay unread, for the next request
        const reports = this.subagents.drain(name);
        if (reports.length === 0) break;
        this.contextTokens = result.contextTokens;
        result = await run(reports.join('\n\n'), steps);
        steps -= result.steps;
      }
      this.contextTokens = result.contextTokens;
      return result;
    } finally {
      this.running = undefined;
      this.live = undefined;
    }
  }

  /** What task and taskstatus reach in this turn: the session's children, with this agent as the caller. */
  private subagentControl(client: ModelClient | undefined): SubagentControl {
    const caller = () => ({ name: this.setup.agent, depth: this.setup.child?.spec.depth ?? 0, mode: this.state.current, client });
    return {
      task: (request, signal) => this.subagents.task(request, caller(), signal),
      status: (names) => this.subagents.status(names),
      freeName: (base) => this.subagents.freeName(base),
    };
  }

  private pipeline(signal: AbortSignal, judge?: CommandJudge, subagents: SubagentControl = this.subagentControl(undefined), client?: ModelClient): CallPipeline {
    const memory = this.memoryOn ? { memory: memoryAccess(memoryStore(this.workspace.root.root), () => this.settings, client, this.trusted) } : {};
    return new CallPipeline(this.tools, { ...this.context, signal, subagents, ...memory }, this.setup.hooks.approve, this.permissions, this.state, judge);
  }
}

/** A signal nothing aborts (calls outside a turn, where the face gave none). */
const NEVER = new AbortController().signal;

const specsOf = (registry: ToolRegistry): ToolSpec[] => registry.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));

/** A safety net above every tool's own deadline (commands have theirs, from settings). */
const timeoutOf = (settings: SettingValues): number => Math.max(10 * 60, (settings['peon.bash.maxTimeoutSeconds'] ?? 600) + 60) * 1000;

/** The model's price, when known (DESIGN.md §6: cost per turn and per session). */
function withPrice(settings: SettingValues, client: ModelClient): { price?: Price } {
  const provider = settings['peon.model.provider'] ?? client.provider;
  const price = priceOf(provider, client.model, settings['peon.model.baseUrl'], settings['peon.model.price']);
  return price ? { price } : {};
}

const withCheckpoints = (checkpoints: Checkpoints | undefined): { checkpoints?: Checkpoints } => (checkpoints ? { checkpoints } : {});

/**
 * The session's checkpoints, where the face gave a place to keep them and the workspace
 * is trusted (in Restricted Mode nothing can change a file). The first snapshot of each
 * folder starts now, in the background.
 */
function rootCheckpoints(setup: ConversationSetup, workspace: Workspace, trusted: boolean, onProblem: (text: string) => void): Checkpoints | undefined {
  if (!setup.checkpoints || !trusted) return undefined;
  const mb = (key: 'peon.checkpoints.maxFileMB' | 'peon.checkpoints.maxStorageMB', fallback: number): number => (setup.settings[key] ?? fallback) * 1024 * 1024;
  let checkpoints: Checkpoints;
  try {
    checkpoints = new Checkpoints({
      folders: workspace.folders.map((f) => f.root),
      dir: setup.checkpoints.dir,
      maxFileBytes: mb('peon.checkpoints.maxFileMB', 5),
      maxStoreBytes: mb('peon.checkpoints.maxStorageMB', 1024),
      ...(setup.checkpoints.waitForFirstScan ? { waitForFirstScan: true } : {}),
    });
  } catch (error) {
    // Where they cannot be kept (a state folder this user cannot write), the session runs
    // without them and says so; it never fails for them.
    onProblem(`Checkpoints are off for this session: ${setup.checkpoints.dir} cannot be used (${error instanceof Error ? error.message : String(error)}). Steps are not recorded and cannot be reverted.`);
    return undefined;
  }
  checkpoints.start();
  return checkpoints;
}

/** Assembles a conversation: the only way a face gets one. */
export function openConversation(setup: ConversationSetup): Conversation {
  return new Conversation(setup);
}
