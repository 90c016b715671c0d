// What a workspace folder holds now, file by file (DESIGN.md §10): each file's identity
// (size, inode, ctime, mode) and the git id of its content, the content kept in the
// shadow's object store. A scan is incremental: a folder is read again only when its
// ctime changed (an entry added, removed or renamed), a file is read again only when
// its identity changed — ctime, not mtime, which a program can set back. A file changed
// within the clock's granularity of a scan is "racy" and read again by the next one
// (git's racy-git rule). The ignore rules apply (.gitignore, .peonignore, node_modules,
// Peon's own .peon/memory): an ignored folder is never read, let alone copied. Folders
// named .git are not entered, so a nested repository's files are tracked as the
// folder's own. Symlinks are neither listed nor followed. Scans yield to the event loop
// as they go: the first one of a large tree runs in the background.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { compareNames, Breather } from '../search/walk';
import { IGNORE_FILES, IgnoreRules } from '../workspace/ignoreRules';
import { ObjectStore } from './objectStore';
import { At, FIELDS, Kind, lstatMany } from '../workspace/parallelStat';
import { racy } from '../workspace/racy';
import { openRegular } from './regularFile';

export interface FileState {
  readonly size: number;
  readonly ino: number;
  readonly ctimeMs: number;
  readonly mode: number;
  /** Its owner, to give a reverted file back to (absent in tables saved before it was kept). */
  readonly uid?: number;
  readonly gid?: number;
  /** The git id of its content. */
  readonly sha: string;
  /** Whether the content is in the store (false: above the size cap, recorded by id only). */
  readonly kept: boolean;
  /** Changed too close to the scan to trust its identity: read again next time. */
  readonly racy?: boolean;
}

interface DirState {
  readonly ctimeMs: number;
  readonly files: readonly string[];
  readonly dirs: readonly string[];
}

export interface TreeState {
  readonly files: ReadonlyMap<string, FileState>;
  readonly dirs: ReadonlyMap<string, DirState>;
  /** The identities of the ignore-rules files seen: one that changed means a scan from scratch. */
  readonly rules: ReadonlyMap<string, string>;
}

export const EMPTY_TREE: TreeState = { files: new Map(), dirs: new Map(), rules: new Map() };

/** Never tracked, whatever the workspace's own rules say: installed packages. */
const ALWAYS_IGNORED = new Set(['node_modules']);
/**
 * Peon's own memory (.peon/memory): written by Peon on its own time (a closed chat's
 * summary, the search index), never by a step, and kept by the Memory view; a step that
 * ran meanwhile would otherwise count it as its own, and its revert delete it.
 */
const OWN_FOLDERS = new Set(['.peon/memory']);

export interface ScanOptions {
  readonly root: string;
  readonly store: ObjectStore;
  /** Files larger than this are recorded by id only, not kept. */
  readonly maxFileBytes: number;
  readonly signal?: AbortSignal;
}

/** lstat's options, made once: a scan calls it once per file. */
const NO_THROW = { throwIfNoEntry: false } as const;

const identity = (stat: fs.Stats): string => `${stat.ino}:${stat.size}:${stat.ctimeMs}`;

/** The folder as it is now, starting from what `previous` knew. */
export async function scanTree(previous: TreeState, options: ScanOptions): Promise<TreeState> {
  const first = await scanOnce(previous, options);
  if (!first.rulesChanged) return first.state;
  // An ignore file changed: what is ignored may have changed anywhere below it.
  return (await scanOnce({ files: previous.files, dirs: new Map(), rules: new Map() }, options)).state;
}

async function scanOnce(previous: TreeState, options: ScanOptions): Promise<{ state: TreeState; rulesChanged: boolean }> {
  const { root, store } = options;
  const started = Date.now();
  const rulesFiles = new Map<string, string>();
  const ignore = new IgnoreRules(root);
  const files = new Map<string, FileState>();
  const dirs = new Map<string, DirState>();
  const breather = new Breather(options.signal);
  let rulesChanged = false;
  // Paths joined by hand: path.join's normalising costs as much as the lstat per file.
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const stack = [''];
  while (stack.length > 0) {
    if (breather.due()) await breather.pause();
    const rel = stack.pop()!;
    const abs = rel === '' ? root : prefix + rel;
    const stat = fs.lstatSync(abs, NO_THROW);
    if (!stat?.isDirectory()) continue;
    const cached = previous.dirs.get(rel);
    // Changed too close to this scan (racy.ts): kept with no ctime, so the next scan reads it again.
    const ctimeMs = racy(stat.ctimeMs, started) ? Number.NaN : stat.ctimeMs;
    // A folder that cannot be read (made unreadable) keeps what was known of it: counted empty, a revert would delete its files.
    const listing = cached && cached.ctimeMs === stat.ctimeMs ? cached : (readDir(abs, rel, ctimeMs, ignore) ?? { ...(cached ?? { files: [], dirs: [] }), ctimeMs: Number.NaN });
    dirs.set(rel, listing);
    for (const name of IGNORE_FILES) {
      const ruleFile = rel === '' ? name : `${rel}/${name}`;
      if (!listing.files.includes(ruleFile)) continue;
      const ruleStat = fs.lstatSync(prefix + ruleFile, NO_THROW);
      const id = ruleStat ? identity(ruleStat) : 'gone';
      rulesFiles.set(ruleFile, id);
      if (previous.rules.size > 0 && previous.rules.get(ruleFile) !== id) rulesChanged = true;
    }
    for (let i = listing.dirs.length - 1; i >= 0; i--) stack.push(listing.dirs[i]!);
  }
  // Every file's identity, half of them in a worker thread (parallelStat.ts).
  const names: string[] = [];
  for (const listing of dirs.values()) for (const file of listing.files) names.push(file);
  const stats = await lstatMany(
    names.map((file) => prefix + file),
    () => (breather.due() ? breather.pause() : undefined),
  );
  for (let i = 0; i < names.length; i++) {
    const o = i * FIELDS;
    const file = names[i]!;
    if (stats[o + At.Kind] === Kind.Failed) {
      // It could not be looked at (its folder made unsearchable, a path too long): it stays as it was known; taken for gone, a revert would delete it.
      const known = previous.files.get(file);
      if (known) files.set(file, known);
      continue;
    }
    if (stats[o + At.Kind] !== Kind.File) continue;
    const ino = stats[o + At.Ino]!;
    const size = stats[o + At.Size]!;
    const ctimeMs = stats[o + At.CtimeMs]!;
    const mode = stats[o + At.Mode]!;
    const before = previous.files.get(file);
    const same = before && !before.racy && before.ino === ino && before.size === size && before.ctimeMs === ctimeMs && before.mode === mode;
    const state = same ? before : readFileState(prefix + file, ino, store, options.maxFileBytes);
    if (!state) continue;
    // The ctime of what was kept (read now, or as it was): a change after it within the same tick would not move it.
    files.set(file, racy(state.ctimeMs, started) ? { ...state, racy: true } : state.racy ? withoutRacy(state) : state);
    if (breather.due()) await breather.pause();
  }
  // Rules files that disappeared count as changed too.
  for (const ruleFile of previous.rules.keys()) if (!rulesFiles.has(ruleFile)) rulesChanged = true;
  return { state: { files, dirs, rules: rulesFiles }, rulesChanged };
}

function withoutRacy(state: FileState): FileState {
  const { racy: _, ...rest } = state;
  return rest;
}

/** One folder's entries that are tracked: files and folders, sorted, ignore rules applied; undefined when it cannot be read. */
function readDir(abs: string, rel: string, ctimeMs: number, ignore: IgnoreRules): DirState | undefined {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch (error) {
    // Gone, or a file now: empty. Unreadable (EACCES): undefined, what was known of it stays.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { ctimeMs, files: [], dirs: [] } : undefined;
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  const ownRules = entries.some((e) => (IGNORE_FILES as readonly string[]).includes(e.name));
  const ignored = ignore.forDirectory(rel, ownRules);
  const files: string[] = [];
  const dirs: string[] = [];
  for (const entry of entries) {
    if (entry.name === '.git' || (entry.isDirectory() && ALWAYS_IGNORED.has(entry.name))) continue;
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory() && OWN_FOLDERS.has(child)) continue;
    if (entry.isFile() && !ignored(entry.name, false)) files.push(child);
    else if (entry.isDirectory() && !ignored(entry.name, true)) dirs.push(child);
  }
  return { ctimeMs, files, dirs };
}

/**
 * A file's state, its content stored when it is small enough; undefined when it went
 * meanwhile, or is no longer the regular file (inode `ino`) an lstat saw (swapped for a
 * link or a FIFO: it is opened without following a link and without blocking, and must
 * be the same inode).
 */
export function readFileState(file: string, ino: number, store: ObjectStore, maxFileBytes: number): FileState | undefined {
  let entry: ReturnType<typeof openRegular>;
  try {
    entry = openRegular(file);
  } catch {
    return undefined;
  }
  if (entry.kind !== 'file') return undefined;
  const { fd, stat: now } = entry;
  try {
    if (now.ino !== ino) return undefined;
    const base = { size: now.size, ino: now.ino, ctimeMs: now.ctimeMs, mode: now.mode, uid: now.uid, gid: now.gid };
    if (now.size > maxFileBytes) return { ...base, sha: hashLarge(fd, now.size), kept: false };
    return { ...base, sha: store.write(fs.readFileSync(fd)), kept: true };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** The git id of a file too large to keep, read a chunk at a time (a 2 GB file never in memory). */
function hashLarge(fd: number, size: number): string {
  const hash = createHash('sha1').update(`blob ${size}\0`);
  const chunk = Buffer.allocUnsafe(1 << 20);
  let read = 0;
  for (let n; read < size && (n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - read), read)) > 0; read += n) hash.update(chunk.subarray(0, n));
  return hash.digest('hex');
}

/** What a folder's file table looks like saved (a new session starts from it, reading only what changed). */
export function serializeTree(state: TreeState): string {
  return JSON.stringify({ files: [...state.files], dirs: [...state.dirs], rules: [...state.rules] });
}

export function deserializeTree(text: string): TreeState {
  const data = JSON.parse(text) as { files: [string, FileState][]; dirs: [string, DirState][]; rules: [string, string][] };
  return { files: new Map(data.files), dirs: new Map(data.dirs), rules: new Map(data.rules) };
}
