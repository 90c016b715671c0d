// How a tool call reads on its card (DESIGN.md §7): one sentence from the call's
// arguments while it runs ("Run `npm test`"), and from its typed result once it ended
// ("Ran `npm test` · exit 1 · 4.2 s"), never raw JSON. A tool that words its own result
// (web, MCP, skills, memory, subagents: `headline`) keeps its words. Pure: the panel's
// host calls it, the tests feed it real results.
import { cutText, formatSize } from '../../shared/format';
import { visibleText } from '../../shared/hiddenText';

type Args = Readonly<Record<string, unknown>>;

/** A call's outcome as the agent loop reports it (the pipeline's, or the loop's own refusal). */
export type SentenceOutcome =
  | { readonly ok: true; readonly output: string; readonly headline?: string; readonly diff?: string; readonly data: Readonly<Record<string, unknown>> }
  | {
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string };
      readonly permission?: { readonly decision: string; readonly source: string; readonly answer?: 'approved' | 'denied'; readonly userMessage?: string };
    };

/** What the card says before the call ends. */
export interface PlannedCard {
  readonly headline?: string;
  /** The model's description of a command, a subagent's prompt. */
  readonly detail?: string;
  /** The workspace file the card opens. */
  readonly path?: string;
}

export interface FinishedCard extends PlannedCard {
  readonly status: 'ok' | 'error' | 'denied' | 'cancelled';
  /** The change written (a unified diff). */
  readonly diff?: string;
  /** How long it ran, when the tool measured it itself (a command). */
  readonly durationMs?: number;
}

const AGENTS: Readonly<Record<string, string>> = { agent_claude: 'Claude Code', agent_codex: 'Codex', agent_pi: 'pi' };

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
/** Model-written text in a sentence: one line, bounded, hidden characters made visible. */
const shown = (text: string, max = 80): string => cutText(visibleText(text.replace(/\s*\n[\s\S]*$/, ' …').trim()), max);
const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const quoted = (text: string): string => `“${shown(text, 60)}”`;
const command = (text: string): string => `\`${shown(text, 60)}\``;
const inFolder = (path: string | undefined): string => (path && path !== '.' ? ` in ${shown(path, 60)}` : '');

/** Lines added and removed by a unified diff, as "+4 −1" (empty when it is not one). */
export function diffStat(diff: string | undefined): string {
  if (!diff?.startsWith('--- ')) return '';
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  return `+${added} −${removed}`;
}

/** What the call will do, from its arguments alone; undefined for a tool this does not know (an MCP tool: its card names it). */
export function plannedCard(name: string, args: Args): PlannedCard | undefined {
  const path = str(args.path);
  const file = path ? shown(path, 120) : '(no path)';
  switch (name) {
    case 'read': {
      const offset = num(args.offset);
      const from = offset !== undefined && offset > 1 ? ` from ${args.unit === 'bytes' ? 'byte' : 'line'} ${offset}` : '';
      return { headline: `Read ${file}${from}`, ...(path ? { path } : {}) };
    }
    case 'grep':
      return { headline: `Search ${str(args.pattern) ? `/${shown(String(args.pattern), 60)}/` : ''}${inFolder(path)}` };
    case 'glob':
      return { headline: `Find files matching ${shown(str(args.pattern) ?? '', 60)}${inFolder(path)}` };
    case 'list':
      return { headline: `List ${path && path !== '.' ? file : 'the workspace'}` };
    case 'edit':
      return { headline: `Edit ${file}`, ...(path ? { path } : {}) };
    case 'write':
      return { headline: `Write ${file}`, ...(path ? { path } : {}) };
    case 'delete':
      return { headline: `Delete ${file}` };
    case 'bash': {
      const description = str(args.description);
      return { headline: `Run ${command(str(args.command) ?? '')}`, ...(description ? { detail: shown(description, 300) } : {}) };
    }
    case 'todowrite': {
      const id = str(args.id);
      if (args.action === 'delete') return { headline: `Delete todo ${shown(id ?? '', 40)}` };
      if (!id) return { headline: `Add todo: ${shown(str(args.title) ?? '', 80)}` };
      return { headline: `Update todo ${shown(id, 40)}${str(args.status) ? ` → ${shown(String(args.status), 20)}` : ''}` };
    }
    case 'todoread':
      return { headline: 'Read the todo list' };
    case 'askuserquestion': {
      const count = Array.isArray(args.questions) ? args.questions.length : 0;
      return { headline: `Ask you ${plural(count, 'question')}` };
    }
    case 'enterplanmode':
      return { headline: 'Enter plan mode', ...(str(args.reason) ? { detail: shown(String(args.reason), 300) } : {}) };
    case 'exitplanmode':
      return { headline: 'Propose the plan' };
    case 'webfetch':
      return { headline: `Fetch ${shown(str(args.url) ?? '', 100)}` };
    case 'websearch':
      return { headline: `Search the web for ${quoted(str(args.query) ?? '')}` };
    case 'task':
      return { headline: `Start ${shown(str(args.subagent_type) ?? 'a', 20)} ${shown(str(args.name) ?? 'subagent', 40)}${args.background === true ? ' in the background' : ''}`, ...(str(args.prompt) ? { detail: shown(String(args.prompt), 300) } : {}) };
    case 'taskstatus': {
      const names = Array.isArray(args.agent_names) ? args.agent_names.filter((n): n is string => typeof n === 'string') : [];
      return { headline: `Check on ${names.length > 0 ? shown(names.join(', '), 80) : 'the subagents'}` };
    }
    case 'read_skill':
      return { headline: `Read the skill ${shown(str(args.name) ?? '', 60)}` };
    case 'loadskill':
      return { headline: `Load the skill ${shown(str(args.name) ?? '', 60)}` };
    case 'mem-search':
      return { headline: `Search memory for ${quoted(str(args.query) ?? '')}` };
    case 'mem-read':
      return { headline: `Read memory ${shown(str(args.id) ?? '', 60)}` };
    default: {
      const agent = AGENTS[name];
      return agent ? { headline: `Ask ${agent}`, ...(str(args.prompt) ? { detail: shown(String(args.prompt), 300) } : {}) } : undefined;
    }
  }
}

/** How the call ended: what it did, or that the person (or a rule) denied it, Stop cancelled it, or why it failed. */
export function finishedCard(name: string, args: Args, outcome: SentenceOutcome): FinishedCard {
  const planned = plannedCard(name, args);
  if (!outcome.ok) {
    const { code, message } = outcome.error;
    const permission = outcome.permission;
    const base = { ...(planned?.headline ? { headline: planned.headline } : {}), ...(planned?.path && name !== 'write' ? { path: planned.path } : {}) };
    if (code === 'cancelled') return { ...base, status: 'cancelled' };
    if (permission?.answer === 'denied') return { ...base, status: 'denied', detail: `Denied by you${permission.userMessage ? `: ${cutText(permission.userMessage, 1900)}` : ''}` };
    if (permission?.decision === 'deny') return { ...base, status: 'denied', detail: `Denied by ${cutText(permission.source, 1900)}` };
    return { ...base, status: 'error', detail: cutText(message, 2000) };
  }
  const data = outcome.data;
  const diff = outcome.diff?.startsWith('--- ') ? outcome.diff : undefined;
  const done = (headline: string, extra: Partial<FinishedCard> = {}): FinishedCard => ({
    status: 'ok',
    headline,
    ...(planned?.detail ? { detail: planned.detail } : {}),
    ...(diff ? { diff } : {}),
    ...extra,
  });
  if (outcome.headline) return done(outcome.headline);
  const path = str(data.path) ?? str(args.path);
  const file = path ? shown(path, 120) : '(no path)';
  const opens = path ? { path } : {};
  switch (name) {
    case 'read':
      return done(`Read ${file} · ${readExtent(data)}`, opens);
    case 'grep':
      return done(`Searched /${shown(str(args.pattern) ?? '', 60)}/${inFolder(str(args.path))} · ${grepExtent(data)}`);
    case 'glob': {
      const count = num(data.count) ?? 0;
      return done(`Found ${count === 0 ? 'no files' : plural(count, 'file')}${data.truncated === true ? ` (of ${num(data.total) ?? 'more'})` : ''} matching ${shown(str(args.pattern) ?? '', 60)}${inFolder(str(args.path))}`);
    }
    case 'list': {
      const entries = Array.isArray(data.entries) ? data.entries.length : 0;
      return done(`Listed ${path && path !== '.' ? file : 'the workspace'} · ${plural(entries, 'entry', 'entries')}${data.truncated === true ? ' (cut)' : ''}`);
    }
    case 'edit': {
      const times = num(data.replacements) ?? 1;
      const whose = data.editedByUser === true ? ' (your version)' : '';
      return done(`Edited ${file}${whose} ${diffStat(diff)}${times > 1 ? ` · ${times} replacements` : ''}`.replace(/\s+$/, ''), opens);
    }
    case 'write': {
      const verb = data.editedByUser === true ? `Wrote your version of` : data.created === true ? 'Created' : 'Wrote';
      const stat = diffStat(diff);
      return done(`${verb} ${file} ${stat || `· ${formatSize(num(data.bytes) ?? 0)}`}`, opens);
    }
    case 'delete':
      return done(`Deleted ${file}${data.link === true ? ' (the link only)' : ''} · kept in the trash`);
    case 'bash':
    case 'agent_claude':
    case 'agent_codex':
    case 'agent_pi': {
      const what = name === 'bash' ? command(str(args.command) ?? '') : AGENTS[name]!;
      const ended = processEnd(data);
      const durationMs = num(data.durationMs);
      const failed = ended !== 'exit 0';
      return {
        ...done(`Ran ${what} · ${ended}`, durationMs === undefined ? {} : { durationMs }),
        ...(data.cancelled === true ? { status: 'cancelled' as const } : failed ? { status: 'error' as const } : {}),
      };
    }
    case 'todowrite': {
      const todos = Array.isArray(data.todos) ? (data.todos as { status?: unknown }[]) : [];
      const complete = todos.filter((t) => t.status === 'completed').length;
      const todo = data.todo as { id?: unknown; title?: unknown } | undefined;
      const deleted = data.deleted as { id?: unknown } | undefined;
      const what = deleted ? `Deleted todo ${shown(String(deleted.id), 40)}` : `${data.created === true ? 'Added' : 'Updated'} todo ${shown(String(todo?.id ?? ''), 40)}${typeof todo?.title === 'string' ? `: ${shown(todo.title, 60)}` : ''}`;
      return done(`${what} · ${complete} of ${todos.length} done`);
    }
    case 'todoread': {
      const todos = Array.isArray(data.todos) ? data.todos.length : 0;
      return done(`Read the todo list · ${plural(todos, 'todo')}`);
    }
    case 'askuserquestion': {
      const answers = data.answers && typeof data.answers === 'object' ? Object.keys(data.answers).length : 0;
      return done(`Asked you · ${plural(answers, 'answer')}`);
    }
    case 'enterplanmode':
      return done('Entered plan mode: Peon only reads and plans');
    case 'exitplanmode':
      return done('You approved the plan: plan mode is off');
    default:
      return planned?.headline ? done(planned.headline) : { status: 'ok' };
  }
}

function readExtent(data: Readonly<Record<string, unknown>>): string {
  const lines = num(data.lines) ?? 0;
  const size = num(data.size) ?? 0;
  if (str(data.binary)) return `binary (${data.binary}), ${formatSize(size)}`;
  const range = data.range as { from?: unknown; to?: unknown } | null | undefined;
  const from = num(range?.from);
  const to = num(range?.to);
  if (data.unit === 'bytes') return from === undefined || to === undefined ? formatSize(size) : `bytes ${from}–${to} of ${size}`;
  if (from === undefined || to === undefined) return lines === 0 ? 'empty' : `nothing there (${plural(lines, 'line')})`;
  return `lines ${from}–${to}${to < lines || from > 1 ? ` of ${lines.toLocaleString('en-US')}` : ''}`;
}

function grepExtent(data: Readonly<Record<string, unknown>>): string {
  const matches = num(data.matches) ?? 0;
  const files = num(data.files) ?? 0;
  const more = data.truncated === true ? '+' : '';
  if (matches === 0) return 'no matches';
  const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')}${more} ${n === 1 && !more ? one : many}`;
  if (data.mode === 'files_with_matches') return count(files, 'file', 'files');
  return `${count(matches, 'match', 'matches')}${files > 1 ? ` in ${files} files` : ''}`;
}

/** How a process ended: "exit 1", "timed out after 40 s", "stopped", "killed by SIGKILL". */
function processEnd(data: Readonly<Record<string, unknown>>): string {
  if (data.timedOut === true) return `timed out after ${num(data.timeoutSeconds) ?? '?'} s`;
  if (data.cancelled === true) return 'stopped';
  if (str(data.signal)) return `killed by ${data.signal}`;
  return `exit ${num(data.exitCode) ?? '?'}`;
}
