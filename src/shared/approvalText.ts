// What an approval card says, in the person's words (DESIGN.md §7): its title, why it
// asks, where a command runs, and what each answer grants and where that is kept. The
// gate's `source` strings ("default for bash: semi-judge") stay as they are for the
// model, the CLI and the log; only what the card shows is translated here.
import type { ApprovalCard } from './approvalCard';
import { cutText } from './format';
import { visibleText } from './hiddenText';

const OPERATION = { create: 'Create', overwrite: 'Overwrite', edit: 'Edit', delete: 'Delete' } as const;

/** The card's title: what will happen, in a few words ("Create src/rules.js", "Run a command"). */
export function cardTitle(card: Pick<ApprovalCard, 'summary' | 'tool'>): string {
  const s = card.summary;
  switch (s.kind) {
    case 'file-change':
      return `${OPERATION[s.operation]} ${s.path}`;
    case 'file-access':
      return `Read ${s.path}`;
    case 'command':
      return 'Run a command';
    case 'delegate':
      return `Start ${s.executable.split('/').pop() ?? s.executable}`;
    case 'network':
      return s.query !== undefined ? `Search the web via ${s.host}` : `Fetch from ${s.host}`;
    case 'plan':
      return 'Approve the plan';
    case 'skill':
      return `${card.tool === 'read_skill' ? 'Read' : s.fork ? 'Run' : 'Load'} the skill ${s.name}`;
    case 'mcp':
      return `${s.server} › ${s.tool}`;
    case 'mcp-server':
      return `Start the MCP server ${s.server}`;
    case 'mcp-tools':
      return `Use the changed tools of ${s.server}`;
    default:
      return `Approve ${card.tool}`;
  }
}

const WRITE_TOOLS = new Set(['write', 'edit', 'delete']);
const READ_TOOLS = new Set(['read', 'list', 'glob', 'grep', 'mem-search', 'mem-read']);
const DEFAULT = /^default for (\S+): (\S+)$/;
const RULE = /^peon\.permission\.rules \((user|workspace)\): (\S+)(?: ("(?:[^"\\]|\\.)*"))? -> (\S+)$/;
const FALLBACK = /^peon\.permission\.default(?: \((user|workspace)\))?: (\S+)/;
const settingsOf = (scope: string | undefined): string => (scope === 'workspace' ? "This workspace's settings" : 'Your user settings');

/** Why the call asks, from the rule or default that decided (the gate's `source`), as a sentence. */
export function whyItAsks(source: string): string {
  const byDefault = DEFAULT.exec(source);
  if (byDefault) {
    const [, tool = '', mode] = byDefault;
    if (tool === 'bash') return 'Commands that are not on the read-only list ask first';
    if (tool === 'exitplanmode') return 'A plan waits for your approval before Peon acts on it';
    if (tool === 'enterplanmode') return 'Switching to plan mode asks first';
    if (mode === 'ask') return `Every ${tool} call asks first`;
    if (WRITE_TOOLS.has(tool)) return 'Changes to files ask first';
    if (READ_TOOLS.has(tool)) return 'Files outside the workspace, and secret-like, ignored or protected ones, ask before they are read';
    return `${tool} asks first unless it is plainly safe`;
  }
  const rule = RULE.exec(source);
  if (rule) {
    const [, scope, tool = '', pattern, mode] = rule;
    const who = settingsOf(scope);
    if (pattern !== undefined) return `${who} ask before \`${JSON.parse(pattern) as string}\``;
    if (mode === 'ask') return `${who} ask before every ${tool} call`;
    return tool === 'bash' ? `${who}: commands that are not on the read-only list ask first` : `${who} ask before ${tool} calls that are not plainly safe`;
  }
  if (source === 'peon.permission.rules is not valid: every tool asks') return 'Your peon.permission.rules setting could not be read, so every call asks';
  const fallback = FALLBACK.exec(source);
  if (fallback) return fallback[1] ? `${settingsOf(fallback[1])} ask first for tools without a rule of their own` : 'Tools without a rule of their own ask first';
  if (source === 'a command outside the sandbox always asks') return 'Commands that run outside the sandbox always ask';
  if (source === 'what the request would carry out') return 'The request may carry data out of this machine';
  return source;
}

const RISK: Readonly<Record<string, string>> = { process: 'it can run programs', filesystem: 'it touches files', delegate: 'it starts another agent', read_only: 'it reads' };

/** One of the card's reasons in the same words: a rule named the gate's way is named the card's way. */
export function plainReason(reason: string, source: string): string {
  if (reason === source) return whyItAsks(source);
  const risk = /^its risk is (\S+)$/.exec(reason);
  if (risk) return RISK[risk[1]!] ?? reason;
  const asked = /^(.*) asks by (.+)$/s.exec(reason);
  if (asked && (DEFAULT.test(asked[2]!) || RULE.test(asked[2]!))) return `${asked[1]}: ${whyItAsks(asked[2]!)}`;
  return reason;
}

/** Where a command runs: "in the workspace root", "in pkg". */
export const whereItRuns = (cwd: string): string => (cwd === '.' || cwd === '' ? 'in the workspace root' : `in ${cwd}`);

/** An answer that grants more than this call, as its button says it: what it covers, and for how long or where it is kept. */
export interface ScopeLabel {
  /** "Allow", "Always allow". */
  readonly verb: string;
  /** "changes to", "requests to"; empty for a command. */
  readonly what: string;
  /** What it covers, each cut to fit a button (shown as code). */
  readonly items: readonly string[];
  /** How many more it covers than `items` shows. */
  readonly more: number;
  /** "in pkg for this chat", "saved in your user settings". */
  readonly tail: string;
  /** The whole of it, uncut (the button's tooltip). */
  readonly full: string;
}

const SHOWN_ITEMS = 2;
const ITEM_CHARS = 48;

function whatOf(card: Pick<ApprovalCard, 'summary' | 'tool'>): string {
  const s = card.summary;
  if (s.kind === 'file-change') return s.operation === 'delete' ? 'deleting' : 'changes to';
  if (s.kind === 'file-access') return 'reading';
  if (s.kind === 'network') return 'requests to';
  return '';
}

function label(verb: string, what: string, all: readonly string[], tail: string): ScopeLabel {
  // What a button shows of a command hides nothing: a hidden character is named (⟨U+202E⟩), and the tooltip has it whole.
  const items = all.slice(0, SHOWN_ITEMS).map((item) => cutText(visibleText(item).replace(/\s+/g, ' '), ITEM_CHARS));
  const full = `${verb}${what ? ` ${what}` : ''} ${all.map((item) => `\`${visibleText(item)}\``).join(', ')} ${tail}`;
  return { verb, what, items, more: all.length - items.length, tail, full: cutText(full, 2000) };
}

/** "Allow `npm test` for this chat", or undefined when the card grants nothing beyond this call. */
export function sessionLabel(card: Pick<ApprovalCard, 'summary' | 'tool' | 'sessionGrants'>): ScopeLabel | undefined {
  if (card.sessionGrants.length === 0) return undefined;
  const where = card.summary.kind === 'command' && card.summary.cwd !== '.' ? `${whereItRuns(card.summary.cwd)} ` : '';
  return label('Allow', whatOf(card), card.sessionGrants, `${where}for this chat`);
}

/** "Always allow `npm run ts` — saved in your user settings", or undefined when it is not offered. */
export function alwaysLabel(card: Pick<ApprovalCard, 'summary' | 'tool' | 'grantable' | 'canAlways'>): ScopeLabel | undefined {
  if (!card.canAlways || card.grantable.length === 0) return undefined;
  return label('Always allow', whatOf(card), card.grantable, '— saved in your user settings');
}
