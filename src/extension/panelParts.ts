// The side panel's parts, assembled once per window (the chat view provider holds them):
// approval cards, questions, todos, subagents, memory, MCP, model setup, history,
// messages, trash and checkpoints, each given what it needs of the chat; and the table
// that routes the webview's (validated) messages to them. The chat itself (its session,
// conversation and turns) stays in chatViewProvider.ts.
import * as vscode from 'vscode';
import type { Conversation } from '../core/conversation/index';
import type { SessionRecord, SessionStore } from '../core/sessions/sessionStore';
import type { ContextChip } from '../shared/contextChips';
import type { Handlers, HostMessage, WebviewMessage } from '../shared/messages';
import { ApprovalCards } from './approvals';
import type { ChatContext } from './chatContext';
import { checkpointNames, panelCheckpoints } from './checkpointDocuments';
import { copyText, insertAtCursor } from './codeBlockActions';
import { historyFace, trashFace } from './historyFace';
import { openWindowMcp, workspaceNames, type McpContext } from './mcpFace';
import { confirmMemoryDelete, offerMemoryUndo, showMemoryFile } from './memoryFace';
import { applySetup, modelProblem, selectModel, setApiKey } from './modelFromSettings';
import { openWorkspaceFile } from './openFile';
import { PanelAgents } from './panelAgents';
import { trashDirOf } from './panelConversation';
import type { PanelFocus } from './panelFocus';
import { PanelHistory } from './panelHistory';
import { PanelMcp } from './panelMcp';
import { PanelMemory } from './panelMemory';
import { PanelMessages } from './panelMessages';
import { PanelSetup } from './panelSetup';
import { PanelTodos } from './panelTodos';
import { PanelTrash } from './panelTrash';
import { QuestionModal } from './questions';
import { offerRestore } from './restorePicker';
import { runtime } from './runtime';
import { readSettings } from './settings';
import type { Transcript } from './transcript';

/** What the parts are given of the chat they serve. */
export interface PanelChat {
  readonly transcript: Transcript;
  readonly sessions: SessionStore;
  /** The chips for the next message, the active editor's, the `@` picker. */
  readonly context: ChatContext;
  /** The context block each message carried (by its transcript entry). */
  readonly attached: Map<string, string>;
  readonly focus: PanelFocus;
  view(): vscode.WebviewView | undefined;
  post(message: HostMessage): void;
  /** A line into the chat's session, once it has one. */
  record(record: SessionRecord): void;
  /** The chat's saved session, once it has one. */
  session(): string | undefined;
  conversation(): Conversation | undefined;
  ensureConversation(): Conversation | undefined;
  send(text: string, chips?: readonly ContextChip[]): Promise<void>;
  run(text: string, entry?: string, again?: boolean): Promise<void>;
  stop(): void;
  resume(id: string): void;
  deleteSession(id: string): void;
}

/** Where the parts keep things, and the window's secrets and log. */
export interface PanelPlace {
  readonly log: vscode.LogOutputChannel;
  readonly storageUri: vscode.Uri;
  readonly secrets: vscode.SecretStorage;
  readonly mcpContext: McpContext;
}

export function assemblePanel(chat: PanelChat, place: PanelPlace) {
  const { log, storageUri, secrets, mcpContext } = place;
  const post = (message: HostMessage): void => chat.post(message);
  const notice = (level: 'info' | 'warning' | 'error', text: string): void => void chat.transcript.append({ kind: 'notice', level, text });
  const warn = (text: string): void => log.warn(text);
  // The cards' badge is this view's; a waiting card's notification shows the panel on it.
  const face = { view: () => chat.view(), reveal: (id?: string) => void chat.focus.show(id ? { target: 'approval', id } : { target: 'composer' }), memento: mcpContext.globalState };
  const history = new PanelHistory(chat.sessions, post, { current: () => chat.session(), resume: (id) => chat.resume(id), deleteSession: (id) => chat.deleteSession(id) }, historyFace(log));
  const trash = new PanelTrash(trashDirOf(storageUri), post, (record) => chat.record(record), trashFace(log));
  const checkpoints = panelCheckpoints(
    {
      checkpoints: () => chat.ensureConversation()?.checkpoints,
      post,
      transcript: chat.transcript,
      save: (step) => chat.record({ type: 'step', step }),
      notice,
    },
    storageUri,
  );
  const messages = new PanelMessages({
    transcript: chat.transcript,
    conversation: () => chat.conversation(),
    ensureConversation: () => chat.ensureConversation(),
    record: (record) => chat.record(record),
    post,
    send: (text) => chat.send(text),
    run: (text, entry, again) => chat.run(text, entry, again),
    attached: chat.attached,
    // Edit or Retry: the files Peon changed after that message may be put back first (DESIGN.md §10).
    beforeRewind: async (point) => (await offerRestore(checkpoints, point.entryId)) !== 'cancelled',
    warn,
  });
  const agents: PanelAgents = new PanelAgents(post, (text) => notice('info', text), (name, args) => mcp.titleOf(name, args), checkpointNames);
  const approvals = new ApprovalCards(
    post,
    log,
    (callId, waiting) => {
      chat.transcript.awaiting(callId, waiting);
      agents.awaiting(callId, waiting);
    },
    face,
  );
  const questions = new QuestionModal(post, log);
  const todos = new PanelTodos(post, log);
  const memory = new PanelMemory(post, {
    store: () => {
      const conversation = chat.ensureConversation();
      return conversation ? runtime().memoryStore(conversation.workspace.root.root) : undefined;
    },
    enabled: () => readSettings().values['peon.memory.enabled'] ?? true,
    notice,
    show: showMemoryFile,
    confirmDelete: confirmMemoryDelete,
    offerUndo: offerMemoryUndo,
    trusted: () => vscode.workspace.isTrusted,
    warn,
  });
  const mcp: PanelMcp = new PanelMcp(
    post,
    {
      open: (hooks) => openWindowMcp(mcpContext, readSettings().values, { ...hooks, approve: approvals.broker.approve, ask: questions.ask, warn }),
      settings: () => readSettings().values,
      disabledServers: workspaceNames(mcpContext.workspaceState, 'peon.mcp.disabledServers'),
      disabledTools: workspaceNames(mcpContext.workspaceState, 'peon.mcp.disabledTools'),
      onReplaced: (servers) => chat.conversation()?.useMcp(servers),
      warn,
    },
    vscode.workspace.isTrusted,
  );
  /** A message sent before a model is ready waits here; notices' buttons are answered here. */
  const setup = new PanelSetup(chat.transcript, {
    problem: () => modelProblem(secrets),
    run: (text, entry) => chat.run(text, entry),
    busy: () => chat.conversation()?.busy ?? false,
    selectModel: () => selectModel(secrets),
    setApiKey: () => setApiKey(secrets, 'current'),
    warn,
  });
  return { approvals, questions, todos, agents, memory, mcp, setup, history, messages, trash, checkpoints };
}

export type PanelParts = ReturnType<typeof assemblePanel>;

/** Every webview message but `ready` (the view's own), routed to the part that answers it. */
export function panelHandlers(parts: PanelParts, chat: PanelChat, place: PanelPlace): Omit<Handlers<WebviewMessage>, 'ready'> {
  const { approvals, questions, todos, agents, memory, mcp, setup, history, messages, trash, checkpoints } = parts;
  const { secrets, log } = place;
  return {
    send: (message) => void chat.send(message.text, message.chips),
    stop: () => chat.stop(),
    setup: ({ type: _type, ...choice }) => void applySetup(choice, secrets),
    answer: (message) => void approvals.answer(message.id, message.answer, message.message),
    openDiff: (message) => void approvals.openDiff(message.id),
    revokeGrant: (message) => chat.conversation()?.state.grants.revoke(message.tool, message.pattern, message.agent),
    answerQuestions: (message) => questions.answer(message.id, message.answers),
    dismissQuestions: (message) => questions.dismiss(message.id),
    editTodo: (message) => {
      chat.ensureConversation();
      void todos.edit(message);
    },
    openAgent: (message) => agents.open(message.name),
    closeAgent: () => agents.close(),
    stopAgent: (message) => void chat.conversation()?.subagents.stop(message.name),
    remember: (message) => void memory.remember(chat.transcript.messageText(message.entryId)),
    listMemory: () => memory.list(),
    openMemory: (message) => void memory.open(message.id),
    deleteMemory: (message) => void memory.delete(message.id),
    mcpStart: () => void mcp.start(),
    mcpServer: (message) => void mcp.server(message.name, message.action),
    mcpTool: (message) => void mcp.tool(message.name, message.enabled),
    openFile: (message) => void openWorkspaceFile(message.path, message.line, (text) => log.warn(text)),
    noticeAction: (message) => void setup.action(message.entryId, message.action),
    selectModel: () => void selectModel(secrets),
    addContext: (message) => chat.context.add([message.chip]),
    removeContext: (message) => chat.context.remove(message.id),
    findFiles: (message) => void chat.context.find(message.query),
    copyText: (message) => void copyText(message.text),
    insertAtCursor: (message) => void insertAtCursor(message.text),
    removeRule: (message) => void approvals.removeRule(message.tool, message.pattern),
    openRules: () => approvals.openRules(),
    ...history.handlers,
    ...messages.handlers,
    ...trash.handlers,
    ...checkpoints.handlers,
  };
}
