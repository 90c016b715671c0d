// Which rows of a long transcript to put in the DOM: the ones in view plus a margin,
// with spacers standing in for the rest (DESIGN.md §7: long transcripts are
// virtualised; PERF.md B9: a 2,000-message conversation stays under 2,000 nodes).

export interface RowWindow {
  /** First row rendered. */
  readonly start: number;
  /** One past the last row rendered. */
  readonly end: number;
  /** Height of the rows above `start` (the top spacer). */
  readonly top: number;
  /** Height of the rows from `end` on (the bottom spacer). */
  readonly bottom: number;
  /** Height of all rows. */
  readonly total: number;
}

/**
 * The rows overlapping [scrollTop - margin, scrollTop + viewport + margin], by each
 * row's measured (or estimated) height. `scrollTop` past the end is clamped, so a
 * list pinned to its bottom passes `Infinity`.
 */
export function rowWindow(count: number, heightOf: (index: number) => number, scrollTop: number, viewport: number, margin: number): RowWindow {
  const offsets = new Float64Array(count + 1);
  const at = (i: number): number => offsets[i] ?? 0;
  for (let i = 0; i < count; i++) offsets[i + 1] = at(i) + heightOf(i);
  const total = at(count);
  const top = Math.max(0, Math.min(scrollTop, total - viewport));
  const from = top - margin;
  const to = top + viewport + margin;
  let start = 0;
  while (start < count && at(start + 1) <= from) start++;
  let end = start;
  while (end < count && at(end) < to) end++;
  return { start, end, top: at(start), bottom: total - at(end), total };
}
