// Unified diffs for approval cards: what a write or an edit will change, computed from
// the same bytes that will be written.
import { structuredPatch } from 'diff';

const MAX_DIFF_INPUT = 512 * 1024;
const CONTEXT = 3;
const MAX_HUNKS = 20;

function header(path: string, before: boolean): string[] {
  return [`--- ${before ? `a/${path}` : '/dev/null'}`, `+++ b/${path}`];
}

/** A hunk header; an empty side starts at the line before it, as in GNU diff (`-0,0`). */
const hunkHeader = (oldStart: number, oldLines: number, newStart: number, newLines: number): string =>
  `@@ -${oldLines === 0 ? oldStart - 1 : oldStart},${oldLines} +${newLines === 0 ? newStart - 1 : newStart},${newLines} @@`;

function render(hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[]): string[] {
  return hunks.flatMap((h) => [hunkHeader(h.oldStart, h.oldLines, h.newStart, h.newLines), ...h.lines]);
}

/** A whole-file diff (write): before is undefined for a new file. */
export function fileDiff(path: string, before: string | undefined, after: string): string {
  if ((before?.length ?? 0) > MAX_DIFF_INPUT || after.length > MAX_DIFF_INPUT) {
    return `(no inline diff: the file is too large to diff here; ${before === undefined ? 0 : Buffer.byteLength(before)} bytes -> ${Buffer.byteLength(after)} bytes)`;
  }
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before ?? '', after, undefined, undefined, { context: CONTEXT });
  return [...header(path, before !== undefined), ...render(patch.hunks)].join('\n');
}

const countNewlines = (buffer: Buffer, end: number): number => {
  let n = 0;
  for (let i = buffer.indexOf(10); i !== -1 && i < end; i = buffer.indexOf(10, i + 1)) n++;
  return n;
};

/**
 * The diff of replacing `oldLength` bytes at each offset in `matches` with `replacement`:
 * only the lines around the matches are decoded, so a 50 MB file costs no more than its
 * hunks. Matches whose context overlaps share one hunk.
 */
export function replacementDiff(path: string, before: Buffer, matches: readonly number[], oldLength: number, replacement: Buffer): string {
  const windows: { start: number; end: number; offsets: number[] }[] = [];
  for (const offset of matches) {
    const start = lineStartBefore(before, offset, CONTEXT);
    const end = lineEndAfter(before, offset + oldLength, CONTEXT);
    const previous = windows[windows.length - 1];
    if (previous && start <= previous.end) {
      previous.end = Math.max(previous.end, end);
      previous.offsets.push(offset);
    } else windows.push({ start, end, offsets: [offset] });
  }
  const lines: string[] = [...header(path, true)];
  let shift = 0; // lines added minus removed by the hunks so far
  let counted = 0; // newlines before `countedTo`
  let countedTo = 0;
  for (const [i, w] of windows.slice(0, MAX_HUNKS).entries()) {
    counted += countNewlines(before.subarray(countedTo), w.start - countedTo);
    countedTo = w.start;
    const pieces: Buffer[] = [];
    let from = w.start;
    for (const offset of w.offsets) {
      pieces.push(before.subarray(from, offset), replacement);
      from = offset + oldLength;
    }
    pieces.push(before.subarray(from, w.end));
    const oldText = before.subarray(w.start, w.end).toString('utf8');
    const newText = Buffer.concat(pieces).toString('utf8');
    const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: CONTEXT });
    for (const hunk of patch.hunks) {
      const oldStart = hunk.oldStart + counted;
      lines.push(hunkHeader(oldStart, hunk.oldLines, oldStart + shift, hunk.newLines), ...hunk.lines);
      shift += hunk.newLines - hunk.oldLines;
    }
    if (i === MAX_HUNKS - 1 && windows.length > MAX_HUNKS) lines.push(`(… ${windows.length - MAX_HUNKS} more changed places not shown)`);
  }
  return lines.join('\n');
}

/** Start of the line holding `offset`, `context` lines further back. */
function lineStartBefore(buffer: Buffer, offset: number, context: number): number {
  let start = offset;
  for (let k = 0; k <= context; k++) {
    const nl = start === 0 ? -1 : buffer.lastIndexOf(10, start - 1);
    if (nl === -1) return 0;
    if (k === context) return nl + 1;
    start = nl;
  }
  return start;
}

/** End of the line holding `offset` (after its newline), `context` lines further on. */
function lineEndAfter(buffer: Buffer, offset: number, context: number): number {
  let end = offset;
  for (let k = 0; k <= context; k++) {
    const nl = buffer.indexOf(10, end);
    if (nl === -1) return buffer.length;
    end = nl + 1;
  }
  return end;
}
