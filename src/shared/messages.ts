// The host <-> webview protocol, declared once. Both sides import these schemas and
// validate every message they receive: a webview is a web page, and the host treats
// it as untrusted input; the webview does the same with what the host sends. The
// schemas live by topic (transcript.ts, approvalCard.ts, panelState.ts); this file
// joins them into the two directions' unions.
import * as z from 'zod';
import { AppendMessage, DeltaMessage, MAX_MESSAGE_CHARS, NoticeAction, RemoveMessage, RetryMessage, ToolMessage, TranscriptEntry, TranscriptUpdate } from './transcript';
import { AlwaysRule, ApprovalCard, CARD_DIFF_CHARS, Grant } from './approvalCard';
import { CheckpointHostMessages, CheckpointWebviewMessages } from './checkpoints';
import { ContextChip, EditorChip, FileMatch, MAX_CHIPS } from './contextChips';
import { HistoryList, QueuedMessage, SessionId, SessionInfo, TrashId, TrashItem, MAX_TITLE_CHARS } from './history';
import { AGENT_NAME, AgentInfo, LocalServerInfo, McpServerInfo, MemoryInfo, Meter, Mode, ModelStatus, QuestionRequest, SkillInfo, TODO_STATUSES, TodoItem } from './panelState';

const id = z.string().min(1).max(100);

export * from './transcript';
export * from './approvalCard';
export * from './panelState';
export * from './contextChips';
export * from './history';
export * from './checkpoints';

/** Host -> webview. */
export const HostMessage = z.discriminatedUnion('type', [
  /** The whole conversation, sent once when the webview (re)loads or a chat starts. */
  /** The whole chat; `chat` counts the chats this panel has shown (New Chat and a resumed one count one more; a reload of the page does not). */
  z.object({ type: z.literal('init'), entries: z.array(TranscriptEntry).max(100_000), model: ModelStatus, meter: Meter.optional(), chat: z.number().int().nonnegative().optional() }),
  AppendMessage,
  z.object({ type: z.literal('model'), model: ModelStatus }),
  DeltaMessage,
  ToolMessage,
  /** The token meter: how full the context window is, and what this chat has used. */
  Meter.extend({ type: z.literal('usage') }),
  /** Models found for the first-run choices: the model servers on this machine (Ollama, LM Studio, llama.cpp, vLLM) and VS Code's. */
  z.object({
    type: z.literal('localModels'),
    servers: z.array(LocalServerInfo).max(10),
    /** VS Code's own chat models (Copilot's, or another extension's): no key needed. */
    languageModels: z.array(z.object({ id: z.string().min(1).max(200), name: z.string().max(200) })).max(50).default([]),
  }),
  /** A call waits for the person: its card stays until answered or withdrawn. */
  z.object({ type: z.literal('approval'), card: ApprovalCard }),
  /** The card's request was answered (here or elsewhere) or withdrawn (Stop). */
  z.object({ type: z.literal('approvalSettled'), id }),
  /** What is allowed for this session, listed so each can be revoked. */
  z.object({ type: z.literal('grants'), grants: z.array(Grant).max(1000) }),
  /** Whether a turn is running (the composer offers Stop). */
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  /** askuserquestion: the modal opens with these questions. */
  z.object({ type: z.literal('question'), request: QuestionRequest }),
  /** The questions were answered, or withdrawn (Stop): the modal closes. */
  z.object({ type: z.literal('questionSettled'), id }),
  /** The todo list as it is now (.peon/todos.json); `problem`: why it could not be read as it was. */
  z.object({ type: z.literal('todos'), todos: z.array(TodoItem).max(1000), problem: z.string().max(2000).optional() }),
  /** Plan mode on or off (the banner). */
  z.object({ type: z.literal('mode'), mode: Mode }),
  /** The conversation's subagents as they are now (the strip). */
  z.object({ type: z.literal('agents'), agents: z.array(AgentInfo).max(200) }),
  /** A subagent's transcript, opened read-only: whole once, then its updates. */
  z.object({ type: z.literal('agentView'), name: z.string().regex(AGENT_NAME), entries: z.array(TranscriptEntry).max(100_000) }),
  z.object({ type: z.literal('agentUpdate'), name: z.string().regex(AGENT_NAME), update: TranscriptUpdate }),
  /** The skills this chat found (the composer offers them after `/`), and those skipped with why. */
  z.object({ type: z.literal('skills'), skills: z.array(SkillInfo).max(1000), problems: z.array(z.string().max(4000)).max(1000) }),
  /** The workspace's memory entries (the memory view); `enabled`: peon.memory.enabled. */
  z.object({ type: z.literal('memory'), enabled: z.boolean(), entries: z.array(MemoryInfo).max(20_000) }),
  /** The window's MCP servers as they are now, the configuration's problems, and how many tools are enabled against peon.mcp.maxTools. */
  z.object({
    type: z.literal('mcp'),
    servers: z.array(McpServerInfo).max(200),
    problems: z.array(z.string().max(4000)).max(200),
    enabledTools: z.number().int().min(0),
    maxTools: z.number().int().min(1),
  }),
  RemoveMessage,
  /** The chips waiting for the next message (added by an editor command or the `@` picker), as the host keeps them. */
  z.object({ type: z.literal('context'), chips: z.array(ContextChip).max(MAX_CHIPS) }),
  /** The active editor's file (or its selection) that rides along unless removed; null: none to offer. */
  z.object({ type: z.literal('activeEditor'), chip: EditorChip.nullable() }),
  /** The `@` picker's entries for `query`: workspace files and folders, best first. */
  z.object({ type: z.literal('fileMatches'), query: z.string().max(200), matches: z.array(FileMatch).max(100) }),
  RetryMessage,
  /** The permanent rules added from cards ("Always allow"), as they are now in user settings. */
  z.object({ type: z.literal('rules'), rules: z.array(AlwaysRule).max(1000) }),
  /** Put the cursor in the composer (Focus Chat, New Chat), or on a pending card (its notification's Show). */
  z.object({ type: z.literal('focus'), target: z.enum(['composer', 'approval']), id: id.optional() }),
  /** The history view's list (for the query it asked), and the chats the empty state offers to resume. */
  HistoryList.extend({ type: z.literal('history') }),
  z.object({ type: z.literal('recentChats'), sessions: z.array(SessionInfo).max(5) }),
  /** Show History: the panel opens its history view. */
  z.object({ type: z.literal('openHistory') }),
  /** The messages typed during the turn, not yet delivered. */
  z.object({ type: z.literal('queue'), messages: z.array(QueuedMessage).max(100) }),
  /** The files this conversation deleted that are still in the trash; `note`: what the last Restore did. */
  z.object({ type: z.literal('trash'), entries: z.array(TrashItem).max(1000), note: z.string().max(2000).optional() }),
  /** Checkpoints: a card's or a turn's files as they are now; a revert's conflict card, and when it is settled. */
  ...CheckpointHostMessages,
  /** The person edited a file change's proposal in the diff editor: the card shows their version (`diff`), or Peon's again (null) once they undo it. */
  z.object({ type: z.literal('approvalEdited'), id, diff: z.string().max(CARD_DIFF_CHARS).nullable() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Webview -> host. */
export const WebviewMessage = z.discriminatedUnion('type', [
  /** The app mounted; `composer` says the composer rendered (checked by the in-host tests). */
  z.object({ type: z.literal('ready'), composer: z.boolean() }),
  /** `chips`: the context it carries (the host resolves and reads each itself). */
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS), chips: z.array(ContextChip).max(MAX_CHIPS).optional() }),
  z.object({ type: z.literal('stop') }),
  /** An answer on an approval card; the host ignores an id that is not pending. */
  z.object({ type: z.literal('answer'), id, answer: z.enum(['once', 'session', 'always', 'deny']), message: z.string().max(4000).optional() }),
  /** Open a file change's proposal in VS Code's diff editor (without taking focus). */
  z.object({ type: z.literal('openDiff'), id }),
  z.object({ type: z.literal('revokeGrant'), tool: z.string().max(200), pattern: z.string().max(20_000), agent: z.string().regex(AGENT_NAME).optional() }),
  /** The modal's answers, by question id; the host checks them against the pending questions. */
  z.object({ type: z.literal('answerQuestions'), id, answers: z.record(z.string().max(100), z.string().max(20_000)) }),
  /** The person closed the modal without answering. */
  z.object({ type: z.literal('dismissQuestions'), id }),
  /** Open a subagent's transcript (read-only), or go back to the chat. */
  z.object({ type: z.literal('openAgent'), name: z.string().regex(AGENT_NAME) }),
  z.object({ type: z.literal('closeAgent') }),
  /** Stop one subagent (and those it started). */
  z.object({ type: z.literal('stopAgent'), name: z.string().regex(AGENT_NAME) }),
  /** "Remember this" on a message: an observation of it joins memory. */
  z.object({ type: z.literal('remember'), entryId: id }),
  /** The memory view: list the entries (again), open one in the editor, delete one. */
  z.object({ type: z.literal('listMemory') }),
  z.object({ type: z.literal('openMemory'), id: z.string().max(100) }),
  z.object({ type: z.literal('deleteMemory'), id: z.string().max(100) }),
  /** The MCP section: start what may start now (not waiting for the next message). */
  z.object({ type: z.literal('mcpStart') }),
  /** The MCP section, for one server: approve it (or its changed tools), restart it, turn it on or off for this workspace. */
  z.object({ type: z.literal('mcpServer'), name: z.string().min(1).max(200), action: z.enum(['approve', 'restart', 'enable', 'disable']) }),
  /** The MCP section: one tool (by its Peon name) on or off for this workspace. */
  z.object({ type: z.literal('mcpTool'), name: z.string().min(1).max(100), enabled: z.boolean() }),
  /** The person ticked, renamed or deleted a todo in the panel. */
  z.object({
    type: z.literal('editTodo'),
    id: z.string().min(1).max(100),
    action: z.enum(['update', 'delete']),
    status: z.enum(TODO_STATUSES).optional(),
    title: z.string().trim().min(1).max(500).optional(),
  }),
  /** Open a file the panel names (a path on a tool card, `file:line` in output or an answer); the host opens only a workspace file. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(4096), line: z.number().int().min(1).max(100_000_000).optional() }),
  /** A first-run choice: a provider (asks for a key and a model), or a local model found by the host. */
  z.discriminatedUnion('choice', [
    z.object({ type: z.literal('setup'), choice: z.enum(['anthropic', 'openai']) }),
    z.object({ type: z.literal('setup'), choice: z.literal('vscode-lm'), model: z.string().min(1).max(200) }),
    /** A model of a server found on this machine; the host uses it only if it found that server and model itself. */
    z.object({ type: z.literal('setup'), choice: z.literal('local'), model: z.string().min(1).max(200), baseUrl: z.string().min(1).max(200) }),
  ]),
  /** A notice's button (Set API Key, Retry, Select Model); the host checks the notice offers it. */
  z.object({ type: z.literal('noticeAction'), entryId: id, action: NoticeAction }),
  /** The model chip: choose another model (the same choices as Select Model). */
  z.object({ type: z.literal('selectModel') }),
  /** A chip picked with `@`, or one removed (×), for the next message. */
  z.object({ type: z.literal('addContext'), chip: ContextChip }),
  z.object({ type: z.literal('removeContext'), id }),
  /** The `@` picker asks for the workspace's files and folders matching what was typed. */
  z.object({ type: z.literal('findFiles'), query: z.string().max(200) }),
  /** Copy on a code block: the host puts the text on the clipboard (a webview's own clipboard access varies by host). */
  z.object({ type: z.literal('copyText'), text: z.string().min(1).max(2_000_000) }),
  /** Insert at Cursor on a code block: the host inserts it into the active text editor, or says there is none. */
  z.object({ type: z.literal('insertAtCursor'), text: z.string().min(1).max(2_000_000) }),
  /** Remove a permanent rule added from a card; the host removes it only when it is one of those. */
  z.object({ type: z.literal('removeRule'), tool: z.string().min(1).max(200), pattern: z.string().min(1).max(20_000) }),
  /** Open the user settings (JSON) at peon.permission.rules. */
  z.object({ type: z.literal('openRules') }),
  /** The history view: list the chats whose title or messages hold the query's words. */
  z.object({ type: z.literal('listHistory'), query: z.string().max(200) }),
  /** Continue a saved chat; rename one; delete one (the host asks first); export one as Markdown (the host asks where). */
  z.object({ type: z.literal('resumeSession'), id: SessionId }),
  z.object({ type: z.literal('renameSession'), id: SessionId, title: z.string().trim().min(1).max(MAX_TITLE_CHARS) }),
  z.object({ type: z.literal('deleteSession'), id: SessionId }),
  z.object({ type: z.literal('exportSession'), id: SessionId }),
  /** Typed during a turn: delivered at its next step (as a new message when no turn runs). */
  z.object({ type: z.literal('queueMessage'), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }),
  z.object({ type: z.literal('unqueueMessage'), id }),
  /** Edit and resend a message of the person's: the conversation goes on from before it, with `text`. */
  z.object({ type: z.literal('editMessage'), entryId: id, text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }),
  /** Run the turn that ended in this answer again. */
  z.object({ type: z.literal('retryMessage'), entryId: id }),
  /** The trash: list this conversation's deleted files; restore one. */
  z.object({ type: z.literal('listTrash') }),
  z.object({ type: z.literal('restoreTrash'), id: TrashId }),
  /** Checkpoints: a changed file's diff, Revert and Keep, a conflict card's answers and comparisons. */
  ...CheckpointWebviewMessages,
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, error: `${issue?.message ?? 'invalid message'}${where}` };
}

export const parseHostMessage = (raw: unknown): ParseResult<HostMessage> => parseWith(HostMessage, raw);
export const parseWebviewMessage = (raw: unknown): ParseResult<WebviewMessage> => parseWith(WebviewMessage, raw);

/** One handler per message type: forgetting one is a compile error. */
export type Handlers<M extends { type: string }> = { [K in M['type']]: (message: Extract<M, { type: K }>) => void };

export function dispatch<M extends { type: string }>(handlers: Handlers<M>, message: M): void {
  (handlers[message.type as M['type']] as (m: M) => void)(message);
}
