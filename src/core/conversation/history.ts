// A saved history made whole before it is used again (a resumed chat, a resumed
// subagent): a tool call the host was killed in the middle of has no result, and a
// provider refuses a request with a call left unanswered. Each such call gets one.
import type { HistoryItem } from '../model/modelClient';

export const INTERRUPTED_RESULT = 'Error (cancelled): Peon was closed or reloaded while this call ran, so it may or may not have finished. Check its effect before repeating it.';

/** The history with a result for every tool call (unchanged when nothing is missing). */
export function answered(history: readonly HistoryItem[]): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (let i = 0; i < history.length; i++) {
    const item = history[i]!;
    out.push(item);
    if (item.role !== 'assistant' || item.toolCalls.length === 0) continue;
    const next = history[i + 1];
    const results = next?.role === 'tool' ? next.results : [];
    const missing = item.toolCalls.filter((c) => !results.some((r) => r.callId === c.id));
    if (missing.length === 0) continue;
    const filled = missing.map((c) => ({ callId: c.id, output: INTERRUPTED_RESULT, isError: true }));
    if (next?.role === 'tool') {
      out.push({ role: 'tool', results: [...next.results, ...filled] });
      i++;
    } else out.push({ role: 'tool', results: filled });
  }
  return out;
}
