// A pure-Node file walker for glob and grep when no ripgrep is available. It lists what
// `rg --files --hidden` lists: regular files, hidden ones included, `.git` skipped,
// .gitignore/.peonignore applied while descending (an ignored directory is never read),
// symlinks neither listed nor followed (so a symlink loop cannot trap it). Entries come
// in ripgrep's `--sort path` order: depth first, each directory sorted by name.
import fs, { type Dirent } from 'node:fs';
import path from 'node:path';
import { IGNORE_FILES, type IgnoreRules } from '../workspace/ignoreRules';

export interface WalkOptions {
  /** Absolute directory the ignore rules (and the yielded paths) are relative to. */
  readonly root: string;
  /** Directory to list, relative to `root` ('' for root itself); it must not be ignored itself. */
  readonly start?: string;
  readonly ignore: IgnoreRules;
  readonly signal?: AbortSignal;
  /** A directory that could not be read (permission denied, removed meanwhile). */
  readonly onError?: (relativeDir: string, error: unknown) => void;
}

/**
 * Orders names as ripgrep and git do: by code point (UTF-8 byte order), which differs from
 * JS's UTF-16 order only between astral characters and U+E000..U+FFFF.
 */
export function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y : x) >= 0xe000) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Orders '/'-separated paths the way a sorted depth-first walk visits them ('a/b' before 'a-c'). */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    if (a.charCodeAt(i) === 0x2f) return -1;
    if (b.charCodeAt(i) === 0x2f) return 1;
    return compareNames(a.slice(i), b.slice(i));
  }
  return a.length - b.length;
}

/**
 * The walk and the searches do their I/O synchronously in small pieces (a thread-pool round
 * trip per readdir or read costs several times the call itself); every few milliseconds
 * they pause so the event loop runs and a cancellation lands.
 */
export class Breather {
  private last = performance.now();
  constructor(readonly signal: AbortSignal | undefined) {}
  due(): boolean {
    return performance.now() - this.last > 8;
  }
  async pause(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.last = performance.now();
    this.signal?.throwIfAborted();
  }
}

interface Frame {
  readonly dir: string; // relative to root
  readonly entries: Dirent[];
  readonly ignored: (name: string, isDirectory: boolean) => boolean;
  index: number;
}

/** Yields root-relative, '/'-separated paths of regular files; stops as soon as the caller stops iterating. */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<string, void, undefined> {
  const { root, ignore, signal, onError } = options;
  const start = options.start ?? '';
  const breather = new Breather(signal);
  const open = (dir: string): Frame | undefined => {
    signal?.throwIfAborted();
    try {
      const entries = fs.readdirSync(dir === '' ? root : path.join(root, dir), { withFileTypes: true });
      entries.sort((a, b) => compareNames(a.name, b.name));
      const ownRules = entries.some((e) => (IGNORE_FILES as readonly string[]).includes(e.name));
      return { dir, entries, ignored: ignore.forDirectory(dir, ownRules), index: 0 };
    } catch (error) {
      onError?.(dir, error);
      return undefined;
    }
  };
  const first = open(start);
  const stack: Frame[] = first ? [first] : [];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const entry = frame.entries[frame.index++];
    if (!entry) {
      stack.pop();
      continue;
    }
    if (entry.name === '.git') continue;
    const rel = frame.dir === '' ? entry.name : `${frame.dir}/${entry.name}`;
    let kind: 'file' | 'dir' | 'other' = entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'other';
    if (kind === 'other' && !entry.isSymbolicLink() && !entry.isFIFO() && !entry.isSocket()) {
      // DT_UNKNOWN on some file systems: ask lstat (never stat: symlinks are not followed).
      let stat: fs.Stats | undefined;
      try {
        stat = fs.lstatSync(path.join(root, rel));
      } catch {
        // gone meanwhile
      }
      kind = stat?.isFile() ? 'file' : stat?.isDirectory() ? 'dir' : 'other';
    }
    if (kind === 'other' || frame.ignored(entry.name, kind === 'dir')) continue;
    if (kind === 'file') {
      yield rel;
      continue;
    }
    if (breather.due()) await breather.pause();
    const child = open(rel);
    if (child) stack.push(child);
  }
}
