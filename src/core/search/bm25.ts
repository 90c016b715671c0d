// BM25 ranking over two fields (title and body, the title weighted more), kept current
// one document at a time: memory's entries as they are written, a session's skills
// against the message at hand. Only the postings of the query's terms are read. Its
// state is plain arrays, so it is cheap to build and to save and load whole.

export const BM25 = { k1: 1.2, b: 0.75, titleWeight: 3 } as const;

/**
 * A plural's singular, by Harman's S-stemmer ("reports" → "report", "queries" → "query",
 * "classes" stays): so a search for "incident report" finds "incident reports".
 */
function singular(word: string): string {
  if (word.length < 4 || !word.endsWith('s')) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !/(?:a|e|o)es$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  return word.slice(0, -1);
}

/** Words in lower case, plurals made singular: letters, digits and underscores (a path's parts and an identifier's pieces each count). */
export function terms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  for (let i = 0; i < words.length; i++) words[i] = singular(words[i]!);
  return words;
}

export interface Ranked<K> {
  readonly key: K;
  /** BM25. */
  readonly score: number;
  /**
   * The share of the query's weight this document holds, 0–1: its score over what a
   * document holding every term of the query that some document holds (each often
   * enough to saturate) would score.
   */
  readonly normalised: number;
}

/** The index as saved: documents by slot (a removed one is null), postings as [slot, tf, slot, tf, …]. */
export interface Bm25State<K> {
  readonly keys: readonly (K | null)[];
  readonly lengths: readonly number[];
  readonly postings: Readonly<Record<string, readonly number[]>>;
}

export class Bm25Index<K> {
  private keys: (K | null)[] = [];
  private lengths: number[] = [];
  private readonly slots = new Map<K, number>();
  private postings = new Map<string, number[]>();
  private totalLength = 0;
  private dead = 0;
  /** One document's term counts, reused from one `set` to the next. */
  private readonly counts = new Map<string, number>();

  get size(): number {
    return this.slots.size;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  /** Adds (or replaces) a document. */
  set(key: K, title: string, body: string): void {
    this.delete(key);
    const counts = this.counts;
    counts.clear();
    const titleTerms = terms(title);
    const bodyTerms = terms(body);
    for (const term of titleTerms) counts.set(term, (counts.get(term) ?? 0) + BM25.titleWeight);
    for (const term of bodyTerms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const slot = this.keys.length;
    counts.forEach((count, term) => {
      const posting = this.postings.get(term);
      if (posting) posting.push(slot, count);
      else this.postings.set(term, [slot, count]);
    });
    const length = titleTerms.length * BM25.titleWeight + bodyTerms.length;
    this.keys.push(key);
    this.lengths.push(length);
    this.slots.set(key, slot);
    this.totalLength += length;
  }

  delete(key: K): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.keys[slot] = null;
    this.slots.delete(key);
    this.totalLength -= this.lengths[slot]!;
    // Removed documents' postings stay until they outnumber the living.
    if (++this.dead > 256 && this.dead > this.slots.size) this.compact();
  }

  private compact(): void {
    const renumber = new Map<number, number>();
    const keys: K[] = [];
    const lengths: number[] = [];
    this.keys.forEach((key, slot) => {
      if (key === null) return;
      renumber.set(slot, keys.length);
      this.slots.set(key, keys.length);
      keys.push(key);
      lengths.push(this.lengths[slot]!);
    });
    const postings = new Map<string, number[]>();
    for (const [term, posting] of this.postings) {
      const kept: number[] = [];
      for (let i = 0; i < posting.length; i += 2) {
        const slot = renumber.get(posting[i]!);
        if (slot !== undefined) kept.push(slot, posting[i + 1]!);
      }
      if (kept.length > 0) postings.set(term, kept);
    }
    this.keys = keys;
    this.lengths = lengths;
    this.postings = postings;
    this.dead = 0;
  }

  /** Every document holding a term of the query, best first (ties: the order they were added). */
  search(query: string): Ranked<K>[] {
    const n = this.slots.size;
    if (n === 0) return [];
    const avg = this.totalLength / n || 1;
    const { k1, b } = BM25;
    const scores = new Map<number, number>();
    let best = 0;
    for (const term of new Set(terms(query))) {
      const posting = this.postings.get(term) ?? [];
      let df = 0;
      for (let i = 0; i < posting.length; i += 2) if (this.keys[posting[i]!] !== null) df++;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      // A word no document holds ("please", a typo) says nothing about which is relevant: it weighs nothing.
      if (df > 0) best += idf * (k1 + 1);
      for (let i = 0; i < posting.length; i += 2) {
        const slot = posting[i]!;
        if (this.keys[slot] === null) continue;
        const tf = posting[i + 1]!;
        const part = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.lengths[slot]!) / avg));
        scores.set(slot, (scores.get(slot) ?? 0) + part);
      }
    }
    const ranked = [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return ranked.map(([slot, score]) => ({ key: this.keys[slot]!, score, normalised: best > 0 ? Math.min(1, score / best) : 0 }));
  }

  /** Its whole state, compacted, to save. */
  save(): Bm25State<K> {
    if (this.dead > 0) this.compact();
    return { keys: this.keys, lengths: this.lengths, postings: Object.fromEntries(this.postings) };
  }

  /** An index from a saved state; undefined when the state is not one. */
  static load<K>(state: unknown, isKey: (value: unknown) => value is K): Bm25Index<K> | undefined {
    if (!state || typeof state !== 'object') return undefined;
    const { keys, lengths, postings } = state as Record<string, unknown>;
    if (!Array.isArray(keys) || !Array.isArray(lengths) || keys.length !== lengths.length || !postings || typeof postings !== 'object') return undefined;
    const index = new Bm25Index<K>();
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      const length = lengths[slot];
      if (typeof length !== 'number' || !(length >= 0)) return undefined;
      if (key === null) {
        index.dead++;
      } else {
        if (!isKey(key) || index.slots.has(key)) return undefined;
        index.slots.set(key, slot);
        index.totalLength += length;
      }
      index.keys.push(key === null ? null : key);
      index.lengths.push(length);
    }
    for (const [term, posting] of Object.entries(postings as Record<string, unknown>)) {
      if (!Array.isArray(posting) || posting.length % 2 !== 0) return undefined;
      for (let i = 0; i < posting.length; i += 2) if (!Number.isInteger(posting[i]) || posting[i] < 0 || posting[i] >= keys.length || typeof posting[i + 1] !== 'number') return undefined;
      index.postings.set(term, posting as number[]);
    }
    return index;
  }
}
