// The one composition root (DESIGN.md §1): a conversation of one agent type over one
// workspace, assembled here and nowhere else — the registry for its type, the call
// pipeline, limits, ripgrep, system prompt, compaction policy, price — and the state it
// owns: history, mode, grants, todos. A face (panel, `peon run`, `peon tool`) gives only
// host hooks: approver, question asker, progress, diagnostics, unsaved-buffer check,
// storage folders.
import { runAgentTurn, type FinalReason, type LoopEvent } from '../agent/loop';
import { buildSystemPrompt } from '../agent/systemPrompt';
import type { HistoryItem, ModelClient, ToolSpec, Usage } from '../model/modelClient';
import { priceOf, windowOf, type Price } from '../model/modelInfo';
import type { Approver } from '../permissions/approvals';
import { modelJudge, type CommandJudge } from '../permissions/judgeModel';
import { permissionConfig, type PermissionConfig } from '../permissions/rules';
import { locateRipgrep, type LocateOptions } from '../search/ripgrep';
import type { SettingLayers, SettingValues } from '../settings';
import type { QuestionAsker, ToolContext, WebAccess } from '../tools/contract';
import { DEFAULT_LIMITS } from '../tools/contract';
import type { ToolRegistry } from '../tools/registry';
import { TodoStore } from '../todos/todoStore';
import { FileSnapshots } from '../workspace/snapshots';
import { Trash } from '../workspace/trash';
import { Workspace } from '../workspace/workspace';
import { registryFor, startingMode, type AgentType } from './agentTypes';
import { CallPipeline, type ToolCallOutcome } from './pipeline';
import { remindersFor } from './reminders';
import { ConversationState, type SavedState } from './state';

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
}

export interface TurnResult {
  readonly reason: FinalReason;
  readonly text: string;
  readonly usage: Usage;
}

export class Conversation {
  readonly workspace: Workspace;
  private registry: ToolRegistry;
  private toolSpecs: readonly ToolSpec[];
  private trusted: boolean;
  readonly state: ConversationState;
  readonly todos: TodoStore;
  readonly history: HistoryItem[];
  private permissions: PermissionConfig;
  private settings: SettingValues;
  private context: Omit<ToolContext, 'signal'>;
  private direct: CallPipeline;
  private running: AbortController | undefined;
  private contextTokens = 0;

  constructor(private readonly setup: ConversationSetup) {
    const type = setup.agentType ?? 'main';
    this.workspace = new Workspace(setup.folders.map((f) => ({ ...(f.name ? { name: f.name } : {}), path: f.path })));
    this.trusted = setup.trusted ?? true;
    this.registry = registryFor(type, this.trusted);
    this.toolSpecs = specsOf(this.registry);
    this.permissions = permissionConfig(setup.layers);
    this.settings = setup.settings;
    this.state = new ConversationState(setup.state ?? { mode: startingMode(type), grants: [] });
    if (setup.hooks.onState) this.state.onChange(setup.hooks.onState);
    this.todos = new TodoStore(this.workspace.root.root);
    this.history = [...(setup.history ?? [])];
    const { hooks } = setup;
    this.context = {
      workspace: this.workspace,
      timeoutMs: timeoutOf(setup.settings),
      limits: DEFAULT_LIMITS,
      snapshots: new FileSnapshots(),
      trash: new Trash(setup.trashDir),
      agent: setup.agent,
      ripgrep: locateRipgrep(setup.ripgrep ?? {}),
      settings: setup.settings,
      todos: this.todos,
      ...(hooks.ask ? { ask: hooks.ask } : {}),
      ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
      ...(hooks.unsaved ? { unsaved: hooks.unsaved } : {}),
      ...(hooks.diagnostics ? { diagnostics: hooks.diagnostics } : {}),
      ...(hooks.web ? { web: hooks.web } : {}),
      ...(setup.env ? { env: setup.env } : {}),
    };
    this.direct = this.pipeline(setup.signal ?? new AbortController().signal);
  }

  /**
   * New settings for the turns to come (the person edited them): rules, limits and the
   * model's options. History, state, snapshots and todos stay.
   */
  configure(settings: SettingValues, layers: SettingLayers, trusted = this.trusted): void {
    // Workspace Trust granted (or withdrawn) while the chat goes on: its tools follow.
    if (trusted !== this.trusted) {
      this.trusted = trusted;
      this.registry = registryFor(this.setup.agentType ?? 'main', trusted);
      this.toolSpecs = specsOf(this.registry);
    }
    this.settings = settings;
    this.permissions = permissionConfig(layers);
    this.context = { ...this.context, settings, timeoutMs: timeoutOf(settings) };
    this.direct = this.pipeline(this.setup.signal ?? new AbortController().signal);
  }

  /** The tools this conversation may call now. */
  get tools(): ToolRegistry {
    return this.registry;
  }

  /** What the model is shown of them. */
  get specs(): readonly ToolSpec[] {
    return this.toolSpecs;
  }

  /** Warnings about the settings (a corrupt rule fails closed), for the face to show. */
  get warnings(): readonly string[] {
    return this.permissions.warnings;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Stops the turn in flight: its calls are cancelled, its cards and questions withdrawn. */
  stop(): void {
    this.running?.abort();
  }

  /** One tool call outside a model turn (`peon tool`), in order with the others. */
  call(name: string, input: unknown): Promise<ToolCallOutcome> {
    return this.direct.call(name, input);
  }

  /** One user prompt, run by the agent loop to its end. */
  async turn(prompt: string, client: ModelClient, onEvent: (event: LoopEvent) => void): Promise<TurnResult> {
    if (this.running) throw new Error('A turn is already running in this conversation.');
    const controller = new AbortController();
    const signal = this.setup.signal ? AbortSignal.any([this.setup.signal, controller.signal]) : controller.signal;
    this.running = controller;
    try {
      const { hooks } = this.setup;
      const settings = this.settings;
      const judge = settings['peon.permission.judge'] ? modelJudge(client, signal) : undefined;
      const result = await runAgentTurn(this.history, prompt, {
        client,
        session: this.pipeline(signal, judge),
        system: buildSystemPrompt({ workspace: this.workspace, tools: this.specs, date: new Date() }),
        tools: this.specs,
        reminders: () => remindersFor(this.state.current, this.todos),
        signal,
        contextTokens: this.contextTokens,
        compaction: {
          contextWindow: windowOf(client),
          threshold: settings['peon.compaction.threshold'] ?? 0.8,
          keepTurns: 2,
          memoryRoot: this.workspace.root.root,
          ...(hooks.onReset ? { onCompacted: hooks.onReset } : {}),
        },
        onEvent,
        ...(hooks.onHistory ? { onHistory: hooks.onHistory } : {}),
        ...withPrice(settings, client),
      });
      this.contextTokens = result.contextTokens;
      return result;
    } finally {
      this.running = undefined;
    }
  }

  private pipeline(signal: AbortSignal, judge?: CommandJudge): CallPipeline {
    return new CallPipeline(this.tools, { ...this.context, signal }, this.setup.hooks.approve, this.permissions, this.state, judge);
  }
}

const specsOf = (registry: ToolRegistry): ToolSpec[] => registry.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));

/** A safety net above every tool's own deadline (commands have theirs, from settings). */
const timeoutOf = (settings: SettingValues): number => Math.max(10 * 60, (settings['peon.bash.maxTimeoutSeconds'] ?? 600) + 60) * 1000;

/** The model's price, when known (DESIGN.md §6: cost per turn and per session). */
function withPrice(settings: SettingValues, client: ModelClient): { price?: Price } {
  const provider = settings['peon.model.provider'] ?? client.provider;
  const price = priceOf(provider, client.model, settings['peon.model.baseUrl'], settings['peon.model.price']);
  return price ? { price } : {};
}

/** Assembles a conversation: the only way a face gets one. */
export function openConversation(setup: ConversationSetup): Conversation {
  return new Conversation(setup);
}
