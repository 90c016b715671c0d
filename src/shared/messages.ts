// The host <-> webview protocol, declared once. Both sides import these schemas and
// validate every message they receive: a webview is a web page, and the host treats
// it as untrusted input; the webview does the same with what the host sends.
import * as z from 'zod';

const id = z.string().min(1).max(100);
/** Bounds a composer message; a paste larger than this is refused, not silently cut. */
export const MAX_MESSAGE_CHARS = 200_000;
/** A tool card shows at most this much of its arguments and its result (the model gets all of it). */
export const TOOL_CARD_CHARS = 4000;
/** A tool card's one-sentence headline. */
export const TOOL_HEADLINE_CHARS = 300;

/** A tool call's state: waiting for the person's approval, running, or finished. */
const ToolStatus = z.enum(['waiting', 'running', 'ok', 'error']);

export const ModelStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unconfigured') }),
  z.object({ state: z.literal('configured'), provider: z.string().max(100), model: z.string().max(200).optional() }),
]);
export type ModelStatus = z.infer<typeof ModelStatus>;

export const TranscriptEntry = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id, text: z.string().max(MAX_MESSAGE_CHARS) }),
  /** Something Peon tells the user about itself (never model output). */
  z.object({ kind: z.literal('notice'), id, level: z.enum(['info', 'warning', 'error']), text: z.string().max(4000) }),
  /** The model's text, grown by `delta` messages while it streams; shown as text, never as HTML. */
  z.object({ kind: z.literal('assistant'), id, text: z.string().max(2_000_000) }),
  /** Earlier turns summarised to stay within the context window (shown collapsed). */
  z.object({ kind: z.literal('summary'), id, text: z.string().max(200_000) }),
  /** A tool call's card: what was asked, and (bounded for display) what came back. */
  z.object({
    kind: z.literal('tool'),
    id,
    name: z.string().max(100),
    args: z.string().max(TOOL_CARD_CHARS),
    status: ToolStatus,
    output: z.string().max(TOOL_CARD_CHARS),
    /** What happened, in one sentence, once it finished ("Fetched example.org/docs · 34 KB → Markdown"). */
    headline: z.string().max(TOOL_HEADLINE_CHARS).optional(),
    /** What the card reads instead of the tool's name: an MCP tool's "server › tool" (its args then the one-line summary). */
    title: z.string().max(TOOL_HEADLINE_CHARS).optional(),
  }),
  /** `/skill-name` in the person's message loaded a skill (the chip under it): where from, its hash, what it hides, the subagent it forked, or why it failed. */
  z.object({
    kind: z.literal('skill'),
    id,
    name: z.string().max(64),
    source: z.string().max(4096),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    hidden: z.array(z.string().max(2000)).max(20),
    forked: z.string().max(40).optional(),
    error: z.string().max(2000).optional(),
  }),
]);
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** A skill the composer offers after `/`. */
export const SkillInfo = z.object({ name: z.string().max(64), description: z.string().max(1024), source: z.string().max(4096), fork: z.boolean() });
export type SkillInfo = z.infer<typeof SkillInfo>;

/** A memory entry as the memory view lists it. */
export const MemoryInfo = z.object({
  id: z.string().max(100),
  kind: z.enum(['observation', 'decision', 'summary', 'curated']),
  title: z.string().max(300),
  file: z.string().max(4096),
  created: z.string().max(40).optional(),
  stale: z.boolean(),
});
export type MemoryInfo = z.infer<typeof MemoryInfo>;

export const MCP_STATES = ['untrusted', 'disabled', 'needs-approval', 'needs-input', 'starting', 'ready', 'failed', 'stopped'] as const;
/** One tool of an MCP server as the MCP section lists it: its Peon name, the server's, and its toggle. */
export const McpToolInfo = z.object({ name: z.string().max(100), tool: z.string().max(200), enabled: z.boolean() });
export type McpToolInfo = z.infer<typeof McpToolInfo>;
/** One configured MCP server as the MCP section shows it (src/core/mcp/mcpServer.ts ServerStatus). */
export const McpServerInfo = z.object({
  name: z.string().max(200),
  source: z.enum(['user', '.vscode/mcp.json', '.mcp.json']),
  project: z.boolean(),
  state: z.enum(MCP_STATES),
  /** What runs: the command line or the URL. */
  launch: z.string().max(20_000),
  detail: z.string().max(4000).optional(),
  /** The tail of its stderr (a failed server's why). */
  stderr: z.string().max(8000).optional(),
  tools: z.array(McpToolInfo).max(1000),
  /** Tools that changed since approved, withheld until approved again. */
  withheld: z.array(z.string().max(200)).max(1000),
  /** Turned off for this workspace. */
  disabled: z.boolean(),
});
export type McpServerInfo = z.infer<typeof McpServerInfo>;

export const AGENT_STATUSES = ['pending', 'running', 'completed', 'failed', 'interrupted'] as const;
export const AGENT_TYPE_NAMES = ['orchestrator', 'planner', 'developer', 'explorer'] as const;
export type AgentTypeName = (typeof AGENT_TYPE_NAMES)[number];
export const isAgentType = (value: string): value is AgentTypeName => (AGENT_TYPE_NAMES as readonly string[]).includes(value);
/** A subagent's name: what `task` calls it, what cards and the strip show. */
export const AGENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/** One subagent as its parent, the strip and taskstatus see it (saved with the session). */
export const AgentInfo = z.object({
  name: z.string().regex(AGENT_NAME),
  type: z.enum(AGENT_TYPE_NAMES),
  /** Who started it: `main`, or another subagent's name. */
  parent: z.string().max(100),
  depth: z.number().int().min(1).max(10),
  status: z.enum(AGENT_STATUSES),
  background: z.boolean(),
  /** The last task prompt it was given (bounded). */
  prompt: z.string().max(4000),
  /** Its latest text: the final answer once it ended, else what it last said. */
  lastText: z.string().max(20_000),
  /** Model turns, and tokens as the provider counted them (input, output, cache reads and writes). */
  turns: z.number().int().min(0),
  tokens: z.number().int().min(0),
  /** USD, when the model's price is known. */
  cost: z.number().min(0).optional(),
  /** When it last started (ms since the epoch), and how long it has run in all. */
  startedAt: z.number().min(0),
  elapsedMs: z.number().min(0),
  /** It waits for the person: an approval card or a question of its own. */
  waiting: z.enum(['approval', 'question']).optional(),
  /** Which bound stopped it, or why it failed or was interrupted. */
  stoppedBy: z.string().max(2000).optional(),
  /** The tools its registry holds: its type's table, bound. */
  tools: z.array(z.string().max(100)).max(500),
  /** The todo ids the task completes. */
  todoIds: z.array(z.string().max(100)).max(50),
  /** Where its transcript is kept, when it is saved. */
  transcript: z.string().max(4096).optional(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;
export type AgentStatus = AgentInfo['status'];

/** A command shown on an approval card: in full, up to the bash tool's own limit. */
export const CARD_COMMAND_CHARS = 100_000;

/** What will happen, as the tool assessed it (src/core/tools/contract.ts ApprovalSummary). */
export const ApprovalSummary = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file-access'), path: z.string().max(4096), reasons: z.array(z.string().max(1000)).max(50) }),
  z.object({ kind: z.literal('file-change'), path: z.string().max(4096), operation: z.enum(['create', 'overwrite', 'edit', 'delete']), diff: z.string().max(2_000_000), reasons: z.array(z.string().max(1000)).max(50) }),
  z.object({
    kind: z.literal('command'),
    command: z.string().max(CARD_COMMAND_CHARS),
    cwd: z.string().max(4096),
    description: z.string().max(1000).optional(),
    /** How it will run (DESIGN.md §9): green sandboxed, amber network on, red not sandboxed. */
    sandbox: z.object({ state: z.enum(['sandboxed', 'network', 'unsandboxed']), text: z.string().max(20_000) }).optional(),
  }),
  z.object({
    kind: z.literal('delegate'),
    executable: z.string().max(4096),
    argv: z.array(z.string().max(20_000)).max(200),
    prompt: z.string().max(20_000),
    workspace: z.string().max(4096),
    warning: z.string().max(2000),
    containment: z.string().max(2000).optional(),
  }),
  /** A request leaving the machine: the URL, its host as sent (punycode) and as Unicode when different, a search's query. */
  z.object({
    kind: z.literal('network'),
    url: z.string().max(8192),
    host: z.string().max(300),
    unicodeHost: z.string().max(300).optional(),
    query: z.string().max(1000).optional(),
    /** What in the request looks like data leaving the machine: shown first; such a call always asks. */
    concerns: z.array(z.string().max(1000)).max(20).optional(),
  }),
  z.object({ kind: z.literal('question'), text: z.string().max(20_000) }),
  z.object({ kind: z.literal('generic'), text: z.string().max(20_000) }),
  /**
   * exitplanmode: the plan as Markdown, where it came from, and what it declared it will
   * touch (approving "with the plan's grants" allows exactly these for the session).
   */
  z.object({
    kind: z.literal('plan'),
    plan: z.string().max(200_000),
    source: z.string().max(4096),
    files: z.array(z.string().max(4096)).max(100),
    commands: z.array(z.string().max(4096)).max(100),
  }),
  /** An MCP tool call: server › tool, its input (full, and as one line), the server's hints (claims), what the input hides. */
  z.object({
    kind: z.literal('mcp'),
    server: z.string().max(200),
    tool: z.string().max(200),
    input: z.string().max(20_000),
    line: z.string().max(1000),
    hints: z.array(z.string().max(100)).max(10),
    hidden: z.array(z.string().max(2000)).max(20),
  }),
  /** A project's MCP server to approve: what will run (command line or URL), where, with which env (secrets masked). */
  z.object({
    kind: z.literal('mcp-server'),
    server: z.string().max(200),
    source: z.string().max(4096),
    launch: z.string().max(20_000),
    /** The program the command resolves to, with the server's own PATH. */
    executable: z.string().max(4096).optional(),
    cwd: z.string().max(4096).optional(),
    env: z.array(z.string().max(5000)).max(200),
    headers: z.array(z.string().max(5000)).max(100),
    envFile: z.string().max(4096).optional(),
    /** Workspace files its command line names: the approval holds only while they stay as they are. */
    programs: z.array(z.string().max(4096)).max(50).optional(),
    changed: z.boolean(),
  }),
  /** MCP tools changed since approved (withheld until approved again): each one's text before and after. */
  z.object({
    kind: z.literal('mcp-tools'),
    server: z.string().max(200),
    /** `diff`: before → after as a unified diff, added by the host for the card. */
    changes: z.array(z.object({ tool: z.string().max(200), before: z.string().max(50_000), after: z.string().max(50_000), diff: z.string().max(200_000).optional() })).max(100),
  }),
  /** A skill about to be read or loaded: where it came from, the SHA-256 of what will be used, what it hides; `fork`: the subagent type it starts. */
  z.object({
    kind: z.literal('skill'),
    name: z.string().max(64),
    source: z.string().max(4096),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    hidden: z.array(z.string().max(2000)).max(20),
    fork: z.string().max(40).optional(),
    /** The values that go into the skill (and so into a forked subagent's task), `name = value`. */
    arguments: z.array(z.string().max(2000)).max(50).optional(),
  }),
]);
export type ApprovalSummary = z.infer<typeof ApprovalSummary>;

/** A pending approval: the card is rendered from this, never from the tool name alone. */
export const ApprovalCard = z.object({
  id,
  tool: z.string().max(200),
  risk: z.enum(['read_only', 'filesystem', 'process', 'delegate']),
  summary: ApprovalSummary,
  /** The rule or default that decided to ask, and why. */
  source: z.string().max(2000),
  reasons: z.array(z.string().max(20_000)).max(200),
  /** What "Always allow" would write as rules (command segments or paths). */
  grantable: z.array(z.string().max(20_000)).max(200),
  /** What "Allow for session" covers (a command's segments with their folder, or paths); empty: only once. */
  sessionGrants: z.array(z.string().max(20_000)).max(200),
  /** Whether "Always allow" can write a user rule for this call. */
  canAlways: z.boolean(),
  /** Whether the proposal can be opened in VS Code's diff editor. */
  canOpenDiff: z.boolean(),
  /** A subagent's call: its name and type label the card. */
  agent: z.string().regex(AGENT_NAME).optional(),
  agentType: z.enum(AGENT_TYPE_NAMES).optional(),
});
export type ApprovalCard = z.infer<typeof ApprovalCard>;

export const Grant = z.object({
  tool: z.string().max(200),
  pattern: z.string().max(20_000),
  /** A plan's grant is a glob (files) or a command pattern, not an exact path or segment. */
  origin: z.enum(['approval', 'plan']).optional(),
  /** A subagent's own grant (a plan it approved), for its task only. */
  agent: z.string().regex(AGENT_NAME).optional(),
});
export type Grant = z.infer<typeof Grant>;

export const MAX_QUESTIONS = 20;
/** One askuserquestion question (DESIGN.md §4). */
/** A question's id: a plain name, never one an object already has (`__proto__`, `constructor`). */
export const QUESTION_ID = /^[A-Za-z0-9_.-]{1,100}$/;
const RESERVED_IDS = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty']);
export const isQuestionId = (id: string): boolean => QUESTION_ID.test(id) && !RESERVED_IDS.has(id);
export const Question = z.object({
  id: z.string().refine(isQuestionId, 'letters, digits, _ . - (not a reserved name such as __proto__)'),
  question: z.string().min(1).max(4000),
  type: z.enum(['text', 'select']),
  options: z.array(z.string().min(1).max(500)).max(50).optional(),
  required: z.boolean().optional(),
});
export type Question = z.infer<typeof Question>;
/** Questions waiting for the person: the modal is open until answered or withdrawn. */
export const QuestionRequest = z.object({
  id,
  /** Who asks: `main`, or a subagent's name (its questions are labelled with it). */
  agent: z.string().max(100),
  agentType: z.enum(AGENT_TYPE_NAMES).optional(),
  questions: z.array(Question).min(1).max(MAX_QUESTIONS),
});
export type QuestionRequest = z.infer<typeof QuestionRequest>;

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export const TODO_PRIORITIES = ['high', 'medium', 'low'] as const;
export const TodoItem = z.object({
  id: z.string().min(1).max(100),
  title: z.string().max(500),
  description: z.string().max(4000).optional(),
  status: z.enum(TODO_STATUSES),
  priority: z.enum(TODO_PRIORITIES),
  dependsOn: z.array(z.string().max(100)).max(50),
});
export type TodoItem = z.infer<typeof TodoItem>;

/** The conversation's mode: in `plan` the runtime keeps the agent read-only. */
export const Mode = z.enum(['normal', 'plan']);
export type Mode = z.infer<typeof Mode>;

/** The token meter's numbers. */
const Meter = z.object({
  contextTokens: z.number().int().min(0),
  contextWindow: z.number().int().min(1),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
  /** USD of the last prompt and of the chat, when the model's price is known. */
  promptCost: z.number().min(0).optional(),
  chatCost: z.number().min(0).optional(),
});
export type Meter = z.infer<typeof Meter>;

/** One entry appended: the host sends deltas, never the transcript again. */
const AppendMessage = z.object({ type: z.literal('append'), entry: TranscriptEntry });
/** More text for an assistant entry. */
const DeltaMessage = z.object({ type: z.literal('delta'), id, text: z.string().max(1_000_000) });
/** A tool card's new status and output. */
const ToolMessage = z.object({ type: z.literal('tool'), id, status: ToolStatus, output: z.string().max(TOOL_CARD_CHARS), headline: z.string().max(TOOL_HEADLINE_CHARS).optional() });
/** How a transcript grows: the main one's and an open subagent's alike. */
export const TranscriptUpdate = z.discriminatedUnion('type', [AppendMessage, DeltaMessage, ToolMessage]);
export type TranscriptUpdate = z.infer<typeof TranscriptUpdate>;

/** Host -> webview. */
export const HostMessage = z.discriminatedUnion('type', [
  /** The whole conversation, sent once when the webview (re)loads or a chat starts. */
  z.object({ type: z.literal('init'), entries: z.array(TranscriptEntry).max(100_000), model: ModelStatus, meter: Meter.optional() }),
  AppendMessage,
  z.object({ type: z.literal('model'), model: ModelStatus }),
  DeltaMessage,
  ToolMessage,
  /** The token meter: how full the context window is, and what this chat has used. */
  Meter.extend({ type: z.literal('usage') }),
  /** Models found for the first-run choices: a local Ollama's (localhost:11434) and VS Code's. */
  z.object({
    type: z.literal('localModels'),
    models: z.array(z.string().min(1).max(200)).max(20),
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
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Webview -> host. */
export const WebviewMessage = z.discriminatedUnion('type', [
  /** The app mounted; `composer` says the composer rendered (checked by the in-host tests). */
  z.object({ type: z.literal('ready'), composer: z.boolean() }),
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }),
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
  /** A first-run choice: a provider (asks for a key and a model), or a local model found by the host. */
  z.discriminatedUnion('choice', [
    z.object({ type: z.literal('setup'), choice: z.enum(['anthropic', 'openai']) }),
    z.object({ type: z.literal('setup'), choice: z.enum(['local', 'vscode-lm']), model: z.string().min(1).max(200) }),
  ]),
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
