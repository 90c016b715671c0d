// The tool contract of DESIGN.md §2: what every tool supplies and what it receives.
import type { Checkpoints } from '../checkpoints/checkpoints';
import type { Mode, Question } from '../../shared/messages';
import type { SettingValues } from '../settings';
import type { SkillCatalog } from '../skills/skillCatalog';
import type { TodoStore } from '../todos/todoStore';
import type { ResolvedPath, Workspace } from '../workspace/workspace';
import type { FileSnapshots } from '../workspace/snapshots';
import type { Trash } from '../workspace/trash';
import type { HostLookup } from '../web/egress';
import type { ProxySettings } from '../web/proxy';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import type { SandboxView } from '../sandbox/describe';

/** Declared risk, and the effective risk of one call. */
export const RISKS = ['read_only', 'filesystem', 'process', 'delegate'] as const;
export type Risk = (typeof RISKS)[number];

/** What an approval card shows; rendered from this, never from the tool name. */
export type ApprovalSummary =
  | { kind: 'file-access'; path: string; reasons: string[] }
  | { kind: 'file-change'; path: string; operation: 'create' | 'overwrite' | 'edit' | 'delete'; diff: string; reasons: string[] }
  /** `sandbox`: how it will run, read from the argv that runs (DESIGN.md §9); `unsandboxed` always asks and is never granted. */
  | { kind: 'command'; command: string; cwd: string; description?: string; sandbox?: SandboxView }
  /** `containment`: what ends the agent's processes and which sandbox of its own it starts in. */
  | { kind: 'delegate'; executable: string; argv: string[]; prompt: string; workspace: string; warning: string; containment?: string }
  /**
   * A request leaving the machine: the full URL, its host (punycode as sent), the host as
   * Unicode when it differs, for a search the query that goes out with it, and what in it
   * looks like data leaving (such a call always asks).
   */
  | { kind: 'network'; url: string; host: string; unicodeHost?: string; query?: string; concerns?: string[] }
  | { kind: 'question'; text: string }
  | { kind: 'generic'; text: string }
  /** A skill about to be read or loaded: where it came from, the SHA-256 of what will be used, what it hides; `fork`: the subagent type it starts; `arguments`: the values that go into it (`name = value`). */
  | { kind: 'skill'; name: string; source: string; sha256: string; hidden: string[]; fork?: string; arguments?: string[] }
  /** An MCP tool call: which server's which tool, its input in full and as one line, what the server claims of it (hints, never trusted), what the input hides. */
  | { kind: 'mcp'; server: string; tool: string; input: string; line: string; hints: string[]; hidden: string[] }
  /** A project's MCP server, before it first starts (or after its configuration changed): exactly what will run, secrets masked. */
  | { kind: 'mcp-server'; server: string; source: string; launch: string; executable?: string; cwd?: string; env: string[]; headers: string[]; envFile?: string; programs?: string[]; changed: boolean }
  /** MCP tools whose name, description, schema or annotations changed since approved: withheld until approved again. */
  | { kind: 'mcp-tools'; server: string; changes: { tool: string; before: string; after: string }[] }
  /** A plan to approve (exitplanmode): Markdown, where it came from, what it declared it will touch. */
  | { kind: 'plan'; plan: string; source: string; files: string[]; commands: string[] };

/** The effective risk of THIS call, what it touches and what the card shows. */
export interface Assessment {
  readonly risk: Risk;
  /** Does the call change anything (create, write, edit, delete)? */
  readonly writes: boolean;
  readonly paths: readonly ResolvedPath[];
  readonly summary: ApprovalSummary;
  /**
   * What the tool computed to show the card (the new bytes of an edit, the hash they
   * came from), so execute commits exactly what was approved. Private to the tool.
   */
  readonly prepared?: unknown;
  /**
   * A text file change as a whole: what the file will hold, and the hash of what it
   * holds now (undefined: it does not exist). The card's "Open diff" shows it, and the
   * person may edit it before approving (the session then writes their version).
   */
  readonly proposal?: Proposal;
  /**
   * What approving "with the plan's grants" allows for the rest of the session: file
   * globs (write, edit) and command patterns (bash). Only a plan offers these.
   */
  readonly offers?: PlanGrants;
  /**
   * The call also does what another tool does (a forked skill starts a subagent, as
   * `task` would): it is judged by that tool's rules too, and the stricter decision holds.
   */
  readonly judgedAs?: string;
  /**
   * What the call may change, for its checkpoint (DESIGN.md §10): `files` its own paths
   * (a file tool), `folders` anything in the workspace (a command, an agent, an MCP tool),
   * `none`. Absent: judged from the tool's risk and `writes`.
   */
  readonly changes?: 'none' | 'files' | 'folders';
}

export interface PlanGrants {
  readonly files: readonly string[];
  readonly commands: readonly string[];
}

export interface Proposal {
  readonly path: ResolvedPath;
  readonly content: string;
  readonly currentSha256: string | undefined;
}

export interface OutputLimits {
  /** Characters of output given to the model. */
  readonly maxOutputChars: number;
  /** Largest byte range `read` returns in bytes mode. */
  readonly maxReadBytes: number;
}

export const DEFAULT_LIMITS: OutputLimits = { maxOutputChars: 100_000, maxReadBytes: 1_048_576 };

export interface ToolContext {
  readonly signal: AbortSignal;
  readonly workspace: Workspace;
  readonly timeoutMs: number;
  readonly limits: OutputLimits;
  /** What this session has read or written, by hash: `edit` and `write` check it. */
  readonly snapshots: FileSnapshots;
  readonly trash: Trash;
  /** Who is calling: `main`, a subagent's name, `cli`. */
  readonly agent: string;
  /** Absolute path of the ripgrep binary found for this session, or undefined for the pure-Node fallback. */
  readonly ripgrep: string | undefined;
  /** The resolved `peon.*` settings (user and workspace layers already combined). */
  readonly settings: SettingValues;
  /** Live output of a running call (a command's tail on its card); the model gets the final result. */
  readonly onProgress?: (text: string) => void;
  /**
   * Whether a file (canonical path) is open in the editor with unsaved changes: a change
   * to it always asks, whatever the rules (the unsaved text stays in the editor).
   */
  readonly unsaved?: (canonical: string) => boolean;
  /**
   * The editor's current diagnostics for a file (canonical path), one line each
   * ("12:5 error: … (ts)"); `read` appends them (DESIGN.md §4). Only in VS Code.
   */
  readonly diagnostics?: (canonical: string) => readonly string[];
  /** The host's environment (PATH finds delegated agents); default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** How bash runs its commands (DESIGN.md §9); absent: unsandboxed, and the card says so. */
  readonly sandbox?: CommandSandbox;
  /** The person, for askuserquestion; absent where nobody can answer (no terminal, --batch). */
  readonly ask?: QuestionAsker;
  /** The workspace's todo list (.peon/todos.json). */
  readonly todos?: TodoStore;
  /** The conversation's mode: plan mode keeps the agent read-only (the runtime enforces it). */
  readonly mode?: ModeControl;
  /** How webfetch and websearch reach the web: the person's proxy, and the resolver (default: the system's). */
  readonly web?: WebAccess;
  /** The conversation's subagents (task, taskstatus); absent where none can start. */
  readonly subagents?: SubagentControl;
  /** The skills found when the session started (read_skill, loadskill). */
  readonly skills?: SkillCatalog;
  /** The workspace's memory (mem-search, mem-read); absent when peon.memory.enabled is off. */
  readonly memory?: MemoryAccess;
  /** The conversation's checkpoints: the pipeline records each step that may change files (not for tools to use). */
  readonly checkpoints?: Checkpoints;
}

/** What mem-search and mem-read reach: the memory of the workspace, ranked with the conversation's model at hand. */
export interface MemoryAccess {
  search(query: string, limit: number | undefined, signal: AbortSignal): Promise<ToolResult>;
  read(id: string): ToolResult;
}

/** A `task` call, validated: which agent, of which type, doing what. */
export interface TaskRequest {
  readonly name: string;
  readonly type: 'orchestrator' | 'planner' | 'developer' | 'explorer';
  readonly prompt: string;
  /** Todo ids that move to completed when the task completes. */
  readonly todoIds: readonly string[];
  readonly background: boolean;
}

/** What task and taskstatus reach: the session's children, as the calling agent sees them. */
export interface SubagentControl {
  /** Starts or resumes a child; foreground: resolves with its outcome; background: at once. Throws ToolError. */
  task(request: TaskRequest, signal: AbortSignal): Promise<ToolResult>;
  status(names?: readonly string[]): ToolResult;
  /** `base`, or `base-2`, `base-3`, … : a name no subagent of the session has yet. */
  freeName(base: string): string;
}

export interface WebAccess {
  readonly proxy?: ProxySettings;
  readonly lookup?: HostLookup;
  /** The built worker webfetch converts pages in (dist/markdownWorker.js): a hostile page then cannot stall the host. */
  readonly markdownWorker?: string;
}

/**
 * Puts questions to the person: an answer per question id, or why there is none (they
 * dismissed it; Stop aborts `signal`). Never throws for either: a reply is plain data,
 * whichever bundle made it.
 */
export type QuestionAsker = (request: { readonly agent: string; readonly agentType?: string; readonly questions: readonly Question[] }, signal: AbortSignal) => Promise<QuestionReply>;
export type QuestionReply = { readonly answers: Readonly<Record<string, string>> } | { readonly unanswered: string };

export type { Mode };

export interface ModeControl {
  readonly current: Mode;
  enterPlan(): void;
  exitPlan(): void;
}

/** An image a tool returns (an MCP server's): passed to a model that takes images, else said not to be. */
export interface ToolImage {
  readonly mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** Base64. */
  readonly data: string;
}

export interface ToolResult {
  /** Text for the model. */
  readonly output: string;
  /** Images for the model, after the text (bounded by the tool). */
  readonly images?: readonly ToolImage[];
  /** What happened, as one sentence for the tool's card ("Fetched example.org/docs · 34 KB → Markdown"). */
  readonly headline?: string;
  /** Structured facts for the UI, the CLI's JSON and tests. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The change written, as a unified diff, when it is not the one the card showed (the person's edited version). */
  readonly diff?: string;
}

export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly risk: Risk;
  /**
   * No deadline from the pipeline: it waits for the person (a question), or bounds
   * itself (a subagent's time budget, an MCP call's peon.mcp.timeoutSeconds). Stop
   * still ends it.
   */
  readonly untimed?: boolean;
  /** Validates raw JSON into the input, or throws `invalid_input`. */
  parse(raw: unknown): Input;
  assess(input: Input, ctx: ToolContext): Promise<Assessment>;
  execute(input: Input, ctx: ToolContext, assessment: Assessment): Promise<ToolResult>;
}

export type AnyTool = Tool<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
