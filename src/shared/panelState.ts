// What the panel shows around the conversation: the model, skills, memory, MCP servers,
// subagents, questions, todos, the mode and the meter.
import * as z from 'zod';

const id = z.string().min(1).max(100);

export const ModelStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unconfigured') }),
  /** `endpoint`: the host (and port) of the base URL, when one is set: where the requests go. */
  z.object({ state: z.literal('configured'), provider: z.string().max(100), model: z.string().max(200).optional(), endpoint: z.string().max(200).optional() }),
]);
export type ModelStatus = z.infer<typeof ModelStatus>;

/** A model server found on this machine (the first-run choices and Select Model offer its models). */
export const LocalServerInfo = z.object({
  name: z.string().min(1).max(100),
  baseUrl: z.string().min(1).max(200),
  models: z.array(z.string().min(1).max(200)).max(50),
});
export type LocalServerInfo = z.infer<typeof LocalServerInfo>;

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
export const Meter = z.object({
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

