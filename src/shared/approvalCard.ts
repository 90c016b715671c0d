// An approval card as the webview renders it: what will happen (the tool's typed
// summary), the rule that asked, and what each answer would grant.
import * as z from 'zod';
import { AGENT_NAME, AGENT_TYPE_NAMES } from './panelState';

const id = z.string().min(1).max(100);

/** A command shown on an approval card: in full, up to the bash tool's own limit. */
export const CARD_COMMAND_CHARS = 100_000;

/** A file change's diff on a card, as the tool made it or as the person edited it. */
export const CARD_DIFF_CHARS = 2_000_000;

/** What will happen, as the tool assessed it (src/core/tools/contract.ts ApprovalSummary). */
export const ApprovalSummary = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file-access'), path: z.string().max(4096), reasons: z.array(z.string().max(1000)).max(50) }),
  z.object({ kind: z.literal('file-change'), path: z.string().max(4096), operation: z.enum(['create', 'overwrite', 'edit', 'delete']), diff: z.string().max(CARD_DIFF_CHARS), reasons: z.array(z.string().max(1000)).max(50) }),
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
  /** What "Allow for this chat" covers, as the person reads it (a command's segments as written, without the folder the card names; or paths); empty: only once. */
  sessionGrants: z.array(z.string().max(20_000)).max(200),
  /** Whether "Always allow" can write a user rule for this call (never for a destructive one). */
  canAlways: z.boolean(),
  /** Why the call destroys data (a destructive command, files deleted): the card says so first. */
  destructive: z.array(z.string().max(20_000)).max(200).optional(),
  /** Whether the proposal can be opened in VS Code's diff editor. */
  canOpenDiff: z.boolean(),
  /** The person edited the proposal in the diff editor: their version as a diff against the file, which is what Approve writes. */
  editedDiff: z.string().max(CARD_DIFF_CHARS).optional(),
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
  /** A command as it was written (quotes kept), shown instead of `pattern` (its words). */
  text: z.string().max(20_000).optional(),
});
export type Grant = z.infer<typeof Grant>;

/** A permanent rule the person added with "Always allow" (kept in user settings, peon.permission.rules), listed apart from the chat's grants. */
export const AlwaysRule = z.object({ tool: z.string().min(1).max(200), pattern: z.string().min(1).max(20_000) });
export type AlwaysRule = z.infer<typeof AlwaysRule>;

