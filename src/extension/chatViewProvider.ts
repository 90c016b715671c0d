import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { deferred } from '../core/deferred';
import { modelStatusOf } from '../core/modelStatus';
import { dispatch, parseWebviewMessage, type Handlers, type HostMessage, type ModelStatus, type TranscriptEntry, type WebviewMessage } from '../shared/messages';
import { windowOf } from '../core/model/modelInfo';
import type { Conversation, SavedState } from '../core/conversation/index';
import type { HistoryItem } from '../core/model/modelClient';
import type { SessionGrants } from '../core/permissions/grants';
import { SessionStore, type SessionRecord } from '../core/sessions/sessionStore';
import type { LoopEvent } from '../core/agent/loop';
import { AgentStore, type LoadedAgent } from '../core/sessions/agentStore';
import { modelFromSettings, setupChoices } from './modelFromSettings';
import { openPanelConversation, unsandboxedNotice } from './panelConversation';
import { watchMcpFiles, type McpContext } from './mcpFace';
import { skillsMessage } from './panelSkills';
import { readSettings } from './settings';
import { Transcript } from './transcript';
import { renderWebviewHtml } from './webviewHtml';
import { ChatContext } from './chatContext';
import type { EditorChat } from './editorContext';
import type { ContextChip } from '../shared/contextChips';
import { PanelFocus } from './panelFocus';
import { checkpointNames } from './checkpointDocuments';
import { assemblePanel, panelHandlers, type PanelChat, type PanelParts, type PanelPlace } from './panelParts';

/** What the webview reported when it mounted (the in-host tests await this). */
export interface RenderReport {
  readonly composer: boolean;
}

/**
 * The side-panel chat. The host owns the conversation; the webview renders it and
 * may be destroyed and recreated whenever the view is hidden, so on every `ready`
 * it receives the conversation once, then only deltas.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable, EditorChat {
  private view: vscode.WebviewView | undefined;
  private readonly transcript = new Transcript(
    (message) => {
      // What changes the conversation is recorded as it happens (a crash loses at most this line).
      if (message.type === 'append' || message.type === 'delta' || message.type === 'tool' || message.type === 'usage' || message.type === 'remove' || message.type === 'changeFiles') this.record({ type: 'view', message });
      this.post(message);
    },
    (name, args) => this.parts.mcp.titleOf(name, args),
    checkpointNames,
  );
  /**
   * The panel's parts (panelParts.ts): the cards (also answered from the diff editor's title
   * bar), questions, todos, subagents, memory, the window's MCP servers, model setup,
   * history, queued messages, the trash and the checkpoints.
   */
  readonly parts: PanelParts;
  private readonly place: PanelPlace;
  /** The webview's messages but `ready`, routed to the parts. */
  private readonly handlers: Omit<Handlers<WebviewMessage>, 'ready'>;
  /** The chips for the next message, the active editor's, the `@` picker. */
  private readonly context = new ChatContext(
    (message) => this.post(message),
    (text) => this.log.warn(text),
  );
  /** The context block each message carried (by its transcript entry), for its turn: sent, held for a model, or retried. */
  private readonly attached = new Map<string, string>();
  /** Where the cursor goes when a command shows the panel. */
  private readonly focus = new PanelFocus((message) => this.post(message));
  /** Made on first use (the runtime loads then), and anew for a new or resumed chat. */
  private conversation: Conversation | undefined;
  /** The panel said this window's commands cannot be sandboxed. */
  private sandboxNoted = false;
  /** What the next conversation starts from: a resumed session's history and state. */
  private resumed: { history: HistoryItem[]; state?: SavedState; agents?: LoadedAgent[] } | undefined;
  private session: string | undefined;
  private readonly sessions: SessionStore;
  private model: ModelStatus;
  private readonly disposables: vscode.Disposable[] = [];
  /** Settles when the current webview reports `ready`; replaced once settled and the webview goes away. */
  private rendered = deferred<RenderReport>();
  private renderedSettled = false;
  private lastWarnings = '';
  /** How many chats this panel has shown (the page marks which one it draws). */
  private chats = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly storageUri: vscode.Uri,
    private readonly secrets: vscode.SecretStorage,
    mcpContext: McpContext,
    private readonly globalStorageUri?: vscode.Uri,
  ) {
    this.sessions = new SessionStore(vscode.Uri.joinPath(storageUri, 'sessions').fsPath);
    this.place = { log, storageUri, secrets, mcpContext };
    const chat = this.chatHooks();
    this.parts = assemblePanel(chat, this.place);
    this.handlers = panelHandlers(this.parts, chat, this.place);
    this.model = this.readModel();
    this.disposables.push(
      secrets.onDidChange(() => void this.parts.setup.release()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('peon')) return;
        this.model = this.readModel();
        this.post({ type: 'model', model: this.model });
        this.reconfigure();
        void this.parts.setup.release();
      }),
      // Trust granted while the chat is open: the workspace's skills (and tools) join it now.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reconfigure()),
      watchMcpFiles(() => this.parts.mcp.replace()),
    );
  }

  /** What the parts are given of this chat (panelParts.ts). */
  private chatHooks(): PanelChat {
    return {
      transcript: this.transcript,
      sessions: this.sessions,
      context: this.context,
      attached: this.attached,
      focus: this.focus,
      view: () => this.view,
      post: (message) => this.post(message),
      record: (record) => this.record(record),
      session: () => this.session,
      conversation: () => this.conversation,
      ensureConversation: () => this.ensureConversation(),
      send: (text, chips) => this.send(text, chips),
      run: (text, entry, again) => this.run(text, entry, again),
      stop: () => this.stop(),
      resume: (id) => this.resume(id),
      deleteSession: (id) => this.deleteSession(id),
    };
  }

  /** Resolves when the webview has mounted and reported what it rendered. */
  whenRendered(): Promise<RenderReport> {
    return this.rendered.promise;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.css')).toString(),
    });
    const subscription = view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    this.focus.attach(view);
    this.parts.approvals.refreshBadge();
    view.onDidDispose(() => {
      subscription.dispose();
      if (this.view !== view) return;
      this.view = undefined;
      if (this.renderedSettled) {
        this.rendered = deferred<RenderReport>();
        this.renderedSettled = false;
      }
    });
  }

  newChat(): void {
    this.chats++;
    this.closeChat(true);
    this.resumed = undefined;
    this.session = undefined;
    // New Chat while the panel's first page was still loading: the chat shown before the reload is not reopened over it.
    this.parts.history.chosen();
    this.parts.history.shown(undefined);
    this.parts.messages.restore();
    this.parts.trash.restoreIds();
    this.parts.setup.clear();
    this.transcript.clear();
    this.parts.checkpoints.clear();
    this.parts.agents.clear();
    this.postInit();
  }

  /** Shows the panel with the cursor in the composer (Focus Chat, New Chat). */
  focusComposer(): Promise<void> {
    return this.focus.show({ target: 'composer' });
  }

  /** What is allowed for this chat's session (the panel lists it; in-host tests read it). */
  get grants(): SessionGrants | undefined {
    return this.conversation?.state.grants;
  }

  /** Show History: the panel opens its history view (once its page is ready, when it was not). */
  async showHistory(): Promise<void> {
    await this.reveal();
    this.parts.history.openView(this.renderedSettled);
  }

  /** The chat as the panel shows it (the restore picker lists its messages). */
  get entries(): readonly TranscriptEntry[] {
    return this.transcript.entries;
  }

  /**
   * Continues a saved conversation: its transcript in the panel, its history and state (mode,
   * grants) for the model. One that cannot be read leaves a new chat saying why, never a blank
   * panel (the page draws nothing until the host answers its `ready`).
   */
  resume(id: string): void {
    try {
      this.reopen(id);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.log.error(`The chat ${id} could not be reopened: ${why}`);
      this.newChat();
      this.transcript.append({ kind: 'notice', level: 'error', text: `The saved chat could not be reopened: ${why}` });
    }
  }

  private reopen(id: string): void {
    const loaded = this.sessions.load(id);
    this.chats++;
    this.closeChat(true);
    // Its subagents: one that was running reads interrupted, and nothing is re-run.
    const agents = new AgentStore(this.sessions.agentsDir(id)).load();
    this.resumed = { history: loaded.history, ...(loaded.state ? { state: loaded.state } : {}), agents };
    this.session = id;
    this.parts.history.chosen();
    this.parts.history.shown(id);
    this.parts.messages.restore(loaded.marks);
    this.parts.trash.restoreIds(loaded.trashed);
    this.parts.setup.clear();
    this.transcript.restore(loaded.view);
    this.parts.checkpoints.load(loaded.steps);
    this.parts.agents.restore(agents);
    this.postInit();
  }

  deleteSession(id: string): void {
    if (this.session === id) {
      // A chat deleted is not remembered either.
      this.closeChat(false);
      this.newChat();
    }
    this.sessions.delete(id);
  }

  /** The chat's conversation ends (a new chat, another one resumed); `remember`: its summary joins memory, in the background. */
  private closeChat(remember: boolean): void {
    const closing = this.conversation;
    this.conversation = undefined;
    if (!closing) return;
    closing.stop();
    if (!remember) return;
    void closing.closeToMemory().then(
      (id) => {
        if (id) this.log.info(`The closed chat was saved to memory as ${id}.`);
      },
      (error: unknown) => this.log.warn(`The closed chat was not saved to memory: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Settings or trust changed: the conversation follows now (its skills too), not only at the next message. */
  private reconfigure(): void {
    // The MCP servers are the window's: made anew when trust or their configuration changed.
    this.parts.mcp.reconsider(readSettings().values, vscode.workspace.isTrusted);
    const conversation = this.conversation;
    if (!conversation) return;
    const settings = readSettings();
    conversation.configure(settings.values, settings.layers, vscode.workspace.isTrusted);
    this.post(skillsMessage(conversation));
  }

  stop(): void {
    this.conversation?.stop();
  }

  addContext(chips: readonly ContextChip[]): void {
    this.context.add(chips);
  }

  sendWithContext(text: string, chips: readonly ContextChip[]): void {
    void this.send(text, chips);
  }

  /** Shows the panel without taking the focus (made first, when it was never shown). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand('peon.chatView.focus'); // the view resolves as it shows
  }

  /** The chat's conversation, assembled by the runtime on first use; undefined with no folder open. */
  private ensureConversation(): Conversation | undefined {
    if (this.conversation) return this.conversation;
    const conversation = openPanelConversation({
      extensionUri: this.extensionUri,
      storageUri: this.storageUri,
      ...(this.globalStorageUri ? { globalStorageUri: this.globalStorageUri } : {}),
      settings: readSettings(),
      mcp: this.parts.mcp.servers(),
      hooks: {
        approve: this.parts.approvals.broker.approve,
        ask: this.parts.questions.ask,
        onProgress: (text) => this.transcript.progress(text),
        // A conversation replaced (a new or resumed chat) writes nothing into the next one's session.
        onHistory: (item) => {
          if (this.session && this.conversation === conversation) this.sessions.append(this.session, { type: 'history', item });
        },
        onReset: (history) => {
          if (this.conversation !== conversation) return;
          this.record({ type: 'reset', history: [...history] });
          this.parts.messages.historyReset();
        },
        onState: (state) => {
          if (this.conversation === conversation) this.stateChanged(state);
        },
        agentsDir: () => (this.session && this.conversation === conversation ? this.sessions.agentsDir(this.session) : undefined),
        onAgent: (info) => {
          if (this.conversation === conversation) this.parts.agents.update(info);
        },
        onAgentEvent: (name, event) => {
          if (this.conversation !== conversation) return;
          this.parts.agents.event(name, event);
          this.parts.trash.onEvent(event);
          if (event.type === 'tool_result') this.parts.checkpoints.sync();
          // A subagent's spend is the chat's spend (DESIGN.md §4).
          if (event.type === 'usage') this.transcript.countChild(event);
        },
        onAgentProgress: (name, text) => {
          if (this.conversation === conversation) this.parts.agents.progress(name, text);
        },
      },
      ...this.resumed,
    });
    if (!conversation) return undefined;
    this.conversation = conversation;
    // The runtime's records (a resumed chat's, as restored) are what the strip shows.
    for (const info of conversation.subagents.list()) this.parts.agents.update(info);
    this.parts.todos.attach(conversation);
    this.postState();
    this.post(skillsMessage(conversation));
    this.parts.mcp.postStatus();
    void this.noteSandbox(conversation);
    return conversation;
  }

  private stateChanged(state: SavedState): void {
    this.record({ type: 'state', state });
    this.postState(state);
  }

  /** A line into the chat's session, once it has one. */
  private record(record: SessionRecord): void {
    if (this.session) this.sessions.append(this.session, record);
  }

  /** The grants and the mode (the panel lists the grants and shows plan mode's banner). */
  private postState(state: SavedState | undefined = this.conversation?.state.snapshot()): void {
    // The session's grants, and running subagents' own (a plan one approved), each revocable.
    this.post({ type: 'grants', grants: this.conversation?.state.grants.shown() ?? [...(state?.grants ?? [])] });
    this.post({ type: 'mode', mode: state?.mode ?? 'normal' });
  }

  /**
   * The sandbox is probed as the chat opens: where commands cannot be sandboxed (and the
   * person did not turn it off), the panel says so once a window, before any card does.
   */
  private async noteSandbox(conversation: Conversation): Promise<void> {
    if (this.sandboxNoted || readSettings().values['peon.sandbox.mode'] === 'off') return;
    const text = unsandboxedNotice(await conversation.sandboxStatus()?.catch(() => undefined));
    if (!text || this.sandboxNoted) return;
    this.sandboxNoted = true;
    this.transcript.append({ kind: 'notice', level: 'warning', text });
  }

  /** A message from the composer: one agent turn, streamed into the transcript. */
  private async send(text: string, chips: readonly ContextChip[] = []): Promise<void> {
    // Sent while a turn runs (the composer queues it; a message that crossed the turn's start): it waits for the next step.
    if (this.conversation?.busy) return this.parts.messages.queue(text);
    const isNew = this.session === undefined;
    this.session ??= this.sessions.create(text).id;
    if (isNew) this.parts.history.shown(this.session);
    // The chips are read now, by the host; under the message, what each attached (or why not).
    const attached = chips.length > 0 ? await this.context.take(chips) : undefined;
    const entry = this.transcript.append({ kind: 'user', text, ...(attached ? { context: attached.sent } : {}) });
    if (attached?.block) this.attached.set(entry, attached.block);
    const conversation = this.ensureConversation();
    if (!conversation) {
      this.transcript.append({ kind: 'notice', level: 'error', text: 'Open a folder first: Peon works on a workspace.' });
      return;
    }
    if (isNew) this.sessions.append(this.session, { type: 'state', state: conversation.state.snapshot() });
    await this.run(text, entry);
  }

  /**
   * One agent turn for `text` (in the transcript already, as `entry`, with the context it
   * carried; `again`: the history ends with its prompt already); with no model ready yet, it waits for one.
   */
  private async run(text: string, entry?: string, again = false): Promise<void> {
    const attached = entry ? this.attached.get(entry) : undefined;
    const conversation = this.ensureConversation();
    if (!conversation || conversation.busy) return;
    const settings = readSettings();
    // Busy from here: the composer offers Stop, not Send, while the model is made (a local server asked its window).
    this.post({ type: 'busy', busy: true });
    const client = await modelFromSettings(settings.values, this.secrets);
    // New Chat (or another chat resumed) while the model was being made: this chat's turn does not start.
    if (conversation !== this.conversation) {
      this.post({ type: 'busy', busy: this.conversation?.busy ?? false });
      return;
    }
    if ('problem' in client) {
      this.post({ type: 'busy', busy: false });
      return this.parts.setup.hold(text, client, entry);
    }
    conversation.configure(settings.values, settings.layers, vscode.workspace.isTrusted);
    this.post(skillsMessage(conversation));
    this.transcript.contextWindow = windowOf(client);
    // A chat replaced while its turn ends (New Chat) writes nothing into the next one.
    const onEvent = (event: LoopEvent): void => {
      if (conversation !== this.conversation) return;
      this.parts.messages.onEvent(event, entry);
      this.parts.trash.onEvent(event);
      this.transcript.apply(event);
      if (event.type === 'tool_result') this.parts.checkpoints.sync();
    };
    this.parts.checkpoints.turnStarted();
    let stopped = true;
    try {
      stopped = (await conversation.turn(text, client, onEvent, { ...(attached ? { attached } : {}), ...(again ? { again } : {}) })).reason === 'cancelled';
    } catch (error) {
      this.transcript.append({ kind: 'notice', level: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      if (conversation === this.conversation) this.parts.checkpoints.turnEnded();
      // The chat may have been replaced meanwhile: the composer follows the one shown.
      this.post({ type: 'busy', busy: this.conversation?.busy ?? false });
    }
    if (conversation === this.conversation) await this.parts.messages.afterTurn(stopped);
  }

  /** Stops the window's MCP servers (deactivation waits for them: each runs in its own process group). */
  shutdown(): Promise<void> {
    return this.parts.mcp.dispose();
  }

  dispose(): void {
    void this.parts.mcp.dispose();
    this.parts.approvals.dispose();
    this.parts.questions.dispose();
    this.parts.todos.dispose();
    this.context.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`Ignored a message from the chat view: ${parsed.error}`);
      return;
    }
    dispatch<WebviewMessage>(
      {
        // Also after the view was hidden and shown again: its page reloads and asks anew.
        ready: (message) => {
          // After a window reload: the chat that was shown, if it is still saved.
          const last = this.session === undefined ? this.parts.history.toReopen() : undefined;
          if (last) this.resume(last);
          else this.postInit();
          this.parts.history.pageReady();
          if (this.conversation?.busy) this.post({ type: 'busy', busy: true });
          // First run: offer the model servers answering on this machine, asked after the runtime loads (postInit
          // queues it first): its load stalls the host long enough for a probe's short timeout to fire.
          if (this.model.state === 'unconfigured') setImmediate(() => void setupChoices().then((choices) => this.post({ type: 'localModels', ...choices })));
          this.rendered.resolve({ composer: message.composer });
          this.renderedSettled = true;
          this.focus.ready();
        },
        ...this.handlers,
      },
      parsed.message,
    );
  }

  /** The whole conversation and its meter, once: on `ready`, a new chat, or a resumed one. */
  private postInit(): void {
    const { entries, meter } = this.transcript;
    this.post({ type: 'init', entries, model: this.model, ...(meter ? { meter } : {}), chat: this.chats });
    this.postState();
    this.parts.approvals.postRules();
    for (const card of this.parts.approvals.pending()) this.post({ type: 'approval', card });
    for (const request of this.parts.questions.pending()) this.post({ type: 'question', request });
    this.parts.checkpoints.postAll();
    this.parts.agents.postAll();
    this.post(skillsMessage(this.conversation));
    this.post(this.parts.mcp.status());
    this.context.postAll();
    this.parts.messages.postQueue();
    void this.parts.trash.list();
    // The empty state's recent chats: after the panel drew (the first listing after an update reads every session once).
    if (entries.length === 0) setImmediate(() => this.parts.history.recent());
    // The todo list is the workspace's: shown from the start, the runtime loaded after the panel drew.
    if (this.conversation) void this.parts.todos.refresh();
    else setImmediate(() => this.ensureConversation());
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }

  private readModel(): ModelStatus {
    const settings = readSettings();
    const warnings = settings.warnings.join('\n');
    if (warnings !== this.lastWarnings) for (const warning of settings.warnings) this.log.warn(warning);
    this.lastWarnings = warnings;
    return modelStatusOf(settings.values);
  }
}
