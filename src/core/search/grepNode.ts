// grep without ripgrep: walk.ts + the translated RegExp over lineBlocks.ts, with
// ripgrep's semantics (see there), files visited in `rg --sort path` order. A block of
// lines that the pattern misses as a whole is not split into lines at all.
import fs from 'node:fs';
import path from 'node:path';
import { BinaryFile, displayLine, lineBlocks, LineTooLong, type LineBlock } from './lineBlocks';
import { lineMatcher, type LineMatcher, type Re2Pattern } from './re2';
import { globMatcher } from './scope';
import type { SearchScope } from './scope';
import { Breather, walkFiles } from './walk';

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepQuery {
  readonly scope: SearchScope;
  readonly pattern: Re2Pattern;
  readonly include: readonly string[];
  readonly mode: GrepMode;
  /** Stop once more than this many entries (lines, or files) are found; Infinity for all. */
  readonly maxEntries: number;
  /** Stop once the entries found would print to more than this many characters. */
  readonly maxChars: number;
  readonly signal: AbortSignal;
}

/** One result: a matching line (content), a file (files_with_matches) or a file's count. Paths are relative to scope.dir. */
export interface GrepEntry {
  readonly path: string;
  readonly line?: number;
  readonly text?: string;
  readonly count?: number;
}

export interface GrepFound {
  readonly entries: GrepEntry[];
  /** False when the search stopped at a limit. */
  readonly complete: boolean;
  readonly warnings: string[];
  readonly stoppedEarly: boolean;
}

export const MAX_LINE_CHARS = 2000;

/** Characters an entry takes in the output; both backends stop on the same budget. */
export function entryChars(entry: GrepEntry): number {
  return entry.path.length + 2 + (entry.text === undefined ? 12 : Math.min(entry.text.length, MAX_LINE_CHARS + 40) + 12);
}

/** include globs; a leading '!' excludes. */
export function includeFilter(include: readonly string[]): (relative: string) => boolean {
  const positive = include.filter((g) => !g.startsWith('!')).map(globMatcher);
  const negative = include.filter((g) => g.startsWith('!')).map((g) => globMatcher(g.slice(1)));
  return (rel) => (positive.length === 0 || positive.some((m) => m(rel))) && !negative.some((m) => m(rel));
}

/** Collects entries in order and says when a limit is passed. */
export class Collector {
  readonly entries: GrepEntry[] = [];
  private chars = 0;
  constructor(private readonly query: GrepQuery) {}

  add(entry: GrepEntry): void {
    this.entries.push(entry);
    this.chars += entryChars(entry);
  }

  get full(): boolean {
    return this.entries.length > this.query.maxEntries || this.chars > this.query.maxChars;
  }
}

interface FileHits {
  lines: [number, string][];
  count: number;
}

/** Searches one file; undefined when it is binary, cannot be read or has no match. `stopAfter` matching lines end the read. */
async function searchFile(file: string, matcher: LineMatcher, keepLines: boolean, stopAfter: number, warn: (w: string) => void, breather: Breather): Promise<FileHits | undefined> {
  const hits: FileHits = { lines: [], count: 0 };
  let lineNo = 0;
  // Searches a block of complete lines; true when enough were found.
  const scan = ({ text: block, lossy }: LineBlock): boolean => {
    if (!matcher.block.test(block)) {
      for (let nl = block.indexOf('\n'); nl !== -1; nl = block.indexOf('\n', nl + 1)) lineNo++;
      lineNo++;
      return false;
    }
    for (let start = 0; ; ) {
      const nl = block.indexOf('\n', start);
      const line = nl === -1 ? block.slice(start) : block.slice(start, nl);
      lineNo++;
      if (matcher.line.test(line)) {
        hits.count++;
        if (keepLines) {
          const shown = lossy ? displayLine(line) : line;
          hits.lines.push([lineNo, shown.endsWith('\r') ? shown.slice(0, -1) : shown]);
        }
        if (hits.count >= stopAfter) return true;
      }
      if (nl === -1) return false;
      start = nl + 1;
    }
  };
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    for (const block of lineBlocks(fd)) {
      if (scan(block)) break;
      if (breather.due()) await breather.pause();
    }
    return hits.count > 0 ? hits : undefined;
  } catch (error) {
    if (error instanceof BinaryFile) return undefined;
    if (error instanceof LineTooLong) warn(`${file}: a line over 32 MiB; the rest of the file was not searched`);
    else if (breather.signal?.aborted) throw error;
    else warn(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return hits.count > 0 ? hits : undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export async function grepWithNode(query: GrepQuery): Promise<GrepFound> {
  const { scope, mode, signal } = query;
  const matcher = lineMatcher(query.pattern);
  const included = includeFilter(query.include);
  const warnings: string[] = [];
  const warn = (w: string): void => void (warnings.length < 20 && warnings.push(w));
  const collector = new Collector(query);
  const stopAfter = mode === 'files_with_matches' ? 1 : mode === 'content' ? query.maxEntries + 1 : Infinity;
  const strip = scope.base === '' ? 0 : scope.base.length + 1;
  const files: AsyncIterable<string> | string[] = scope.file
    ? [scope.file]
    : walkFiles({ root: scope.rulesRoot, start: scope.base, ignore: scope.rules, signal, onError: (dir, e) => warn(`${dir || '.'}: ${(e as NodeJS.ErrnoException).code ?? e}`) });
  const breather = new Breather(signal);
  let complete = true;
  for await (const found of files) {
    const rel = scope.file ? found : found.slice(strip);
    if (!included(rel)) continue;
    let hits = await searchFile(path.join(scope.dir, rel), matcher, mode === 'content', stopAfter, warn, breather);
    if (hits && !scope.searchable(rel)) hits = undefined; // counted only when it matched, as with ripgrep
    if (hits && mode === 'content') for (const [line, text] of hits.lines) collector.add({ path: rel, line, text });
    else if (hits && mode === 'count') collector.add({ path: rel, count: hits.count });
    else if (hits) collector.add({ path: rel });
    if (collector.full) {
      complete = false;
      break;
    }
    if (breather.due()) await breather.pause();
  }
  signal.throwIfAborted();
  return { entries: collector.entries, complete, warnings, stoppedEarly: !complete };
}
