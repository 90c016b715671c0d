// Compaction (DESIGN.md §6): before the context window fills, older turns are summarised
// by the model into one message; the most recent turns stay as they are. The cut is
// always at a user message, so a tool call is never separated from its result.
import { memoryStore } from '../memory/memoryStore';
import { NO_USAGE, type HistoryItem, type ModelClient, type Usage } from '../model/modelClient';

export interface CompactionPolicy {
  /** The model's context window, in tokens. */
  readonly contextWindow: number;
  /** Compact when the last request used more than this share of the window. */
  readonly threshold: number;
  /** How many of the latest user prompts (with everything after them) are kept verbatim. */
  readonly keepTurns: number;
}

const SUMMARY_PROMPT = `Summarise the conversation so far for your own later use, as it will replace the earlier turns. Keep: the user's goals and constraints, decisions made, files read or changed (with paths), commands run and their outcomes, errors still open, and what remains to do. Be specific and brief. Reply with the summary only.`;

function render(items: readonly HistoryItem[]): string {
  return items
    .map((item) => {
      if (item.role === 'user') return `USER: ${item.text}`;
      if (item.role === 'assistant') return `ASSISTANT: ${item.text}${item.toolCalls.map((c) => `\n[called ${c.name} ${c.arguments}]`).join('')}`;
      return item.results.map((r) => `[result${r.isError ? ' (error)' : ''}: ${r.output.slice(0, 2000)}]`).join('\n');
    })
    .join('\n\n');
}

/** Where the older part ends: the start of the `keepTurns`-th last user prompt, or 0 (nothing to compact). */
export function splitPoint(history: readonly HistoryItem[], keepTurns: number): number {
  let seen = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]!.role === 'user' && ++seen === keepTurns) return i;
  }
  return 0;
}

/**
 * Summarises history[0..split) with the model: the new history (undefined when the
 * model returned no summary) and the tokens the summary cost; undefined when nothing
 * is old enough to summarise.
 */
export async function compact(history: readonly HistoryItem[], client: ModelClient, policy: CompactionPolicy, signal: AbortSignal): Promise<{ summary: string; history: HistoryItem[] | undefined; usage: Usage } | undefined> {
  const split = splitPoint(history, policy.keepTurns);
  if (split === 0) return undefined;
  let summary = '';
  let usage = NO_USAGE;
  for await (const event of client.stream(
    { system: 'You write concise, faithful summaries of coding sessions.', history: [{ role: 'user', text: `${render(history.slice(0, split))}\n\n${SUMMARY_PROMPT}` }], tools: [], maxTokens: 4096 },
    signal,
  )) {
    if (event.type === 'text') summary += event.delta;
    else if (event.type === 'done') usage = event.usage;
  }
  summary = summary.trim();
  // An empty summary replaces nothing, but its tokens were still spent.
  if (summary === '') return { summary, history: undefined, usage };
  return { summary, usage, history: [{ role: 'user', text: `<summary of the earlier conversation>\n${summary}\n</summary>` }, { role: 'assistant', text: 'Understood; I will continue from this summary.', toolCalls: [] }, ...history.slice(split)] };
}

/** Saves a summary to memory (.peon/memory/summaries/sum-xxxxxx.md), listed in the memory index: its id. */
export async function saveSummary(workspaceRoot: string, summary: string, date = new Date()): Promise<string> {
  const title = `Session summary ${date.toISOString().slice(0, 16).replace('T', ' ')}`;
  return (await memoryStore(workspaceRoot).write('summary', summary, { title, date, source: 'compaction' })).id;
}
