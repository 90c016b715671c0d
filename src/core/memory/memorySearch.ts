// mem-search's ranking and its relevance gates (DESIGN.md §4), and the XML it returns:
//   off       every entry with a positive score, best first, up to the limit;
//   score     only those whose normalised score reaches peon.memory.minScore;
//   decision  only decisions and curated facts (curated files, observations of kind decision);
//   llm       the best candidates go to the conversation's model with the query, and only
//             those it names relevant stay; any failure falls back to `score`;
//   auto      `score`, then `llm` when more than the limit pass.
import { xmlValue as xml } from '../envelope';
import { describeHidden, findHidden, visibleText } from '../../shared/hiddenText';
import type { MemoryEntry } from './memoryEntry';
import type { MemoryStore, StaleCheck } from './memoryStore';

export const RELEVANCE_GATES = ['auto', 'decision', 'llm', 'score', 'off'] as const;
export type RelevanceGate = (typeof RELEVANCE_GATES)[number];

/** Candidates the model is shown, at most. */
const MAX_JUDGED = 20;

/** Asks a model which of the candidates are relevant to the query: their ids. Throws on any failure. */
export type RelevanceJudge = (query: string, candidates: readonly { id: string; title: string; snippet: string }[], signal: AbortSignal) => Promise<string[]>;

export interface SearchRequest {
  readonly query: string;
  readonly limit: number;
  readonly gate: RelevanceGate;
  readonly minScore: number;
  readonly judge?: RelevanceJudge;
  /** Save the index when it changed (not in a restricted workspace). Default true. */
  readonly persist?: boolean;
}

export interface Hit extends StaleCheck {
  readonly entry: MemoryEntry;
  readonly score: number;
  /** Hidden characters made visible (⟨U+XXXX⟩). */
  readonly snippet: string;
  /** What the entry hides (bidi, zero-width, tag characters with their text decoded, …); none: empty. */
  readonly hidden: readonly string[];
}

export interface SearchOutcome {
  readonly hits: readonly Hit[];
  /** The gate that decided (`score` when `llm` failed). */
  readonly gate: RelevanceGate;
  /** Why the model's gate was not used, when it failed. */
  readonly fallback?: string;
}

type Candidate = ReturnType<MemoryStore['rank']>[number];

/** Up to 240 characters of the body around the first term of the query it holds. */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/^#{1,6}[ \t].*$/m, '').replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const at = Math.min(...(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).map((t) => lower.indexOf(t)).filter((i) => i >= 0), Number.MAX_SAFE_INTEGER);
  const start = at === Number.MAX_SAFE_INTEGER ? 0 : Math.max(0, at - 80);
  const cut = flat.slice(start, start + 240);
  return `${start > 0 ? '…' : ''}${cut}${start + 240 < flat.length ? '…' : ''}`;
}

async function byModel(store: MemoryStore, request: SearchRequest, candidates: readonly Candidate[], signal: AbortSignal): Promise<Candidate[]> {
  if (!request.judge) throw new Error('no model is at hand here');
  const shown = candidates.slice(0, MAX_JUDGED);
  const named = new Set(await request.judge(request.query, shown.map((c) => ({ id: c.entry.id, title: visibleText(c.entry.title), snippet: visibleText(snippetOf(store.text(c.entry), request.query)) })), signal));
  return shown.filter((c) => named.has(c.entry.id));
}

export async function searchMemory(store: MemoryStore, request: SearchRequest, signal: AbortSignal): Promise<SearchOutcome> {
  const ranked = store.rank(request.query, request.persist ?? true);
  const passing = ranked.filter((r) => r.normalised >= request.minScore);
  let gate = request.gate;
  let chosen: Candidate[];
  let fallback: string | undefined;
  const viaModel = async (candidates: Candidate[]): Promise<Candidate[]> => {
    try {
      return await byModel(store, request, candidates, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      fallback = `the llm gate failed (${error instanceof Error ? error.message : String(error)}), so entries are ranked by score`;
      gate = 'score';
      return passing;
    }
  };
  switch (request.gate) {
    case 'off':
      chosen = ranked;
      break;
    case 'score':
      chosen = passing;
      break;
    case 'decision':
      chosen = ranked.filter((r) => r.entry.kind === 'decision' || r.entry.kind === 'curated');
      break;
    case 'llm':
      chosen = await viaModel(ranked);
      break;
    case 'auto':
      if (passing.length > request.limit) {
        gate = 'llm';
        chosen = await viaModel(passing);
      } else {
        gate = 'score';
        chosen = passing;
      }
      break;
  }
  const hits = chosen.slice(0, request.limit).map((c) => {
    const text = store.text(c.entry);
    return { entry: c.entry, score: c.normalised, snippet: visibleText(snippetOf(text, request.query)), hidden: describeHidden(findHidden(text)), ...store.staleness(c.entry) };
  });
  return { hits, gate, ...(fallback ? { fallback } : {}) };
}

/**
 * The XML mem-search returns:
 * `<memory_results query gate count [fallback]>` holding one
 * `<entry id kind title score stale [changed] [hidden]>` per hit with its `<snippet>`.
 */
export function resultsXml(query: string, outcome: SearchOutcome): string {
  const head = `<memory_results query="${xml(query)}" gate="${outcome.gate}" count="${outcome.hits.length}"${outcome.fallback ? ` fallback="${xml(outcome.fallback)}"` : ''}>`;
  const entries = outcome.hits.map(
    (h) =>
      `<entry id="${h.entry.id}" kind="${h.entry.kind}" title="${xml(visibleText(h.entry.title))}" score="${h.score.toFixed(2)}" stale="${h.stale}"${h.changed.length ? ` changed="${xml(h.changed.join(', '))}"` : ''}${h.hidden.length ? ` hidden="${xml(h.hidden.join('; '))}"` : ''}>\n<snippet>${xml(h.snippet)}</snippet>\n</entry>`,
  );
  return [head, ...entries, '</memory_results>'].join('\n');
}
