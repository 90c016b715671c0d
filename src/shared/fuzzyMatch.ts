// The `@` picker's matcher: a workspace path matches when the typed characters occur in
// it in order (case-insensitive), as VS Code's Quick Open matches. Matches in the file's
// own name rank above matches spread over its folders; a name typed out, a run of
// consecutive characters and characters at word starts rank higher; shorter paths win ties.

export interface FuzzyMatch {
  readonly score: number;
  /** Where in the path the query's characters matched (for highlighting). */
  readonly positions: readonly number[];
}

const isBoundary = (text: string, at: number): boolean => {
  if (at === 0) return true;
  const before = text[at - 1]!;
  if ('/\\.-_ '.includes(before)) return true;
  // camelCase: a capital after a small letter starts a word.
  const here = text[at]!;
  return here !== here.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase();
};

/** Positions of `query` in `lower` (from `offset`), in order; undefined when it does not occur. A run found whole is preferred. */
function positionsIn(lower: string, query: string, offset: number, original: string): number[] | undefined {
  // The query as one run, preferably starting a word.
  let run = -1;
  for (let at = lower.indexOf(query, offset); at !== -1; at = lower.indexOf(query, at + 1)) {
    if (run === -1) run = at;
    if (isBoundary(original, at)) {
      run = at;
      break;
    }
  }
  if (run !== -1) return Array.from(query, (_, i) => run + i);
  const positions: number[] = [];
  let from = offset;
  for (const ch of query) {
    const at = lower.indexOf(ch, from);
    if (at === -1) return undefined;
    positions.push(at);
    from = at + 1;
  }
  return positions;
}

/** How well `query` matches `path` ('/'-separated; a folder may end in '/'), or undefined when it does not. */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const nameStart = trimmed.lastIndexOf('/') + 1;
  if (q === '') return { score: -trimmed.split('/').length * 10 - trimmed.length / 100, positions: [] };
  // A query naming folders ("src/ind", "lib/") is matched over the whole path; otherwise the name is tried first.
  const target = q.includes('/') ? path : trimmed;
  const lower = target.toLowerCase();
  const inName = q.includes('/') ? undefined : positionsIn(lower, q, nameStart, trimmed);
  const positions = inName ?? positionsIn(lower, q, 0, target);
  if (!positions) return undefined;
  const name = lower.slice(nameStart);
  let score = inName ? 1000 : 0;
  if (inName && (name === q || name.replace(/\.[^.]*$/, '') === q)) score += 500;
  else if (inName && name.startsWith(q)) score += 300;
  // The query as a whole word ("index" in index.test.ts, not indexer.ts).
  const after = lower[positions[positions.length - 1]! + 1];
  if (positions[positions.length - 1]! - positions[0]! === positions.length - 1 && isBoundary(target, positions[0]!) && (after === undefined || !/[a-z0-9]/.test(after))) score += 20;
  let previous = -2;
  for (const at of positions) {
    if (isBoundary(target, at)) score += 10;
    if (at === previous + 1) score += 5;
    previous = at;
  }
  // Characters skipped between the first match and the last, and the path's length, cost a little.
  score -= positions[positions.length - 1]! - positions[0]! - positions.length + 1;
  score -= trimmed.length / 10;
  return { score, positions };
}

/** The entries matching `query`, best first (shorter, then alphabetical in any case, on ties); at most `max`. */
export function rankMatches<T extends { readonly path: string }>(query: string, entries: readonly T[], max: number): (T & FuzzyMatch)[] {
  const found: (T & FuzzyMatch)[] = [];
  for (const entry of entries) {
    const match = fuzzyMatch(query, entry.path);
    if (match) found.push({ ...entry, ...match });
  }
  const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  found.sort((a, b) => b.score - a.score || a.path.length - b.path.length || byName(a.path.toLowerCase(), b.path.toLowerCase()) || byName(a.path, b.path));
  return found.slice(0, max);
}
