// A workspace's memory: its entries on disk (memoryEntry.ts), a BM25 index over their
// titles and bodies kept current — entries Peon writes join it as they are written,
// files changed by anyone else are re-read when a search finds their size or time
// changed — and `.peon/memory/index.md`, one line per entry, rewritten on every change.
// The index is saved under `.peon/memory/.cache/` (ignored by git) after it changes, so
// a new session starts from it and re-reads only what changed since. One store per
// workspace root, shared by the panel and every conversation over it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Bm25Index, type Ranked } from '../search/bm25';
import { loadCache, saveCache } from './memoryCache';
import { citedHash, realFolder, writeExclusive } from './memoryFiles';
import { readBounded, readProjectFile } from '../workspace/safeRead';
import { atomicWrite } from '../workspace/atomicWrite';
import { secretReasons } from '../workspace/pathRules';
import { isWithin } from '../workspace/workspace';
import { curatedId, entryText, formatEntry, MAX_CITED, MEMORY_ID, parseEntry, titleOf, type CitedFile, type MemoryEntry, type MemoryKind } from './memoryEntry';

const MEMORY_DIR = path.join('.peon', 'memory');
const INDEX_FILE = 'index.md';
/** Bytes of one entry read, at most: memory is notes, not data. */
const MAX_ENTRY_BYTES = 1024 * 1024;
const AGENTS_ID = curatedId('AGENTS.md', true);

export interface Held {
  readonly entry: MemoryEntry;
  readonly mtimeMs: number;
  readonly size: number;
}

export interface StaleCheck {
  readonly stale: boolean;
  /** The cited files that changed or are gone since the entry was written. */
  readonly changed: readonly string[];
}

/** Where each kind lives under a root, and the id its file name gives. */
interface Place {
  readonly dir: string;
  /** The folder relative to the root, `/`-separated. */
  readonly rel: string;
  readonly kind: MemoryKind;
  readonly idOf: (name: string) => string | undefined;
}

/** A file that is an entry, as a scan finds it. */
interface Found {
  readonly file: string;
  /** Relative to the root, `/`-separated. */
  readonly relative: string;
  readonly kind: MemoryKind;
  readonly mtimeMs: number;
  readonly size: number;
}

const byPrefix = (prefix: string) => (name: string) => {
  const id = name.endsWith('.md') ? name.slice(0, -3) : '';
  return id.startsWith(prefix) && MEMORY_ID.test(id) ? id : undefined;
};

export class MemoryStore {
  private held = new Map<string, Held>();
  private index = new Bm25Index<string>();
  private readonly hashes = new Map<string, string | undefined>();
  private cacheTried = false;
  /** Entries read or dropped since the index was last saved. */
  private dirty = false;
  readonly dir: string;

  constructor(readonly root: string) {
    this.dir = path.join(root, MEMORY_DIR);
  }

  private places(): Place[] {
    return [
      { dir: path.join(this.dir, 'observations'), rel: '.peon/memory/observations', kind: 'observation', idOf: byPrefix('obs-') },
      { dir: path.join(this.dir, 'summaries'), rel: '.peon/memory/summaries', kind: 'summary', idOf: byPrefix('sum-') },
      { dir: this.dir, rel: '.peon/memory', kind: 'curated', idOf: (name) => (name.toLowerCase().endsWith('.md') && name !== INDEX_FILE ? curatedId(name) : undefined) },
    ];
  }

  /** The files that are entries now, by id (the first of two curated files with one slug wins). */
  private scan(): Map<string, Found> {
    const found = new Map<string, Found>();
    let realRoot: string;
    try {
      realRoot = fs.realpathSync.native(this.root);
    } catch {
      return found;
    }
    // Only files that are in the workspace: a linked folder out of it is not memory, so mem-read cannot become a read of ~/.ssh.
    const inside = (p: string): boolean => {
      try {
        return isWithin(realRoot, fs.realpathSync.native(p));
      } catch {
        return false;
      }
    };
    const add = (id: string, file: string, relative: string, kind: MemoryKind, folderInside: boolean) => {
      if (found.has(id) || !folderInside) return;
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(file);
      } catch {
        return;
      }
      // An entry is a plain file with one name: a link (to .env, say) or a second name may be a secret's, so neither is memory.
      // A curated file's own name may say it holds secrets (`.peon/memory/api-secrets.md`): not memory either.
      if (!stat.isFile() || stat.nlink !== 1 || (kind === 'curated' && secretReasons(relative.split('/')).length > 0)) return;
      found.set(id, { file, relative, kind, mtimeMs: stat.mtimeMs, size: stat.size });
    };
    // AGENTS.md may be a link (to CLAUDE.md): then to a plain file in the workspace that is not secret-like.
    const agents = path.join(this.root, 'AGENTS.md');
    try {
      const real = fs.realpathSync.native(agents);
      const stat = fs.statSync(real);
      if (isWithin(realRoot, real) && stat.isFile() && stat.nlink === 1 && secretReasons(path.relative(realRoot, real).split(path.sep)).length === 0) {
        found.set(AGENTS_ID, { file: agents, relative: 'AGENTS.md', kind: 'curated', mtimeMs: stat.mtimeMs, size: stat.size });
      }
    } catch {
      // No AGENTS.md.
    }
    for (const place of this.places()) {
      let names: string[];
      try {
        names = fs.readdirSync(place.dir);
      } catch {
        continue;
      }
      const folderInside = inside(place.dir);
      names.sort();
      for (const name of names) {
        const id = place.idOf(name);
        if (id) add(id, path.join(place.dir, name), `${place.rel}/${name}`, place.kind, folderInside);
      }
    }
    return found;
  }

  /**
   * Brings the index up to what is on disk: new and changed files read, removed ones
   * dropped; `persist`: the index is saved when it changed (not for a restricted workspace).
   */
  refresh(persist = true): void {
    if (!this.cacheTried) {
      this.cacheTried = true;
      const dir = realFolder(this.root, [], false);
      const cached = dir ? loadCache(dir) : undefined;
      if (cached) ({ held: this.held, index: this.index } = cached);
    }
    const found = this.scan();
    for (const id of this.held.keys()) {
      if (!found.has(id)) {
        this.held.delete(id);
        this.index.delete(id);
        this.dirty = true;
      }
    }
    for (const [id, place] of found) {
      const held = this.held.get(id);
      // A saved entry is taken only for the very file it was read from (a cache is workspace data too).
      if (held && held.mtimeMs === place.mtimeMs && held.size === place.size && held.entry.file === place.relative) continue;
      this.load(id, place.file, place.kind, place.mtimeMs, place.size);
    }
    if (this.dirty && persist) this.saveIfDirty();
  }

  private load(id: string, file: string, kind: MemoryKind, mtimeMs: number, size: number): void {
    const raw = readEntry(this.root, this.relative(file));
    if (raw === undefined) return;
    const { entry, text } = parseEntry(raw, { id, kind, file: this.relative(file) });
    this.held.set(id, { entry, mtimeMs, size });
    this.index.set(id, entry.title, text);
    this.dirty = true;
  }

  private relative(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  /** An entry's text now (after its front matter), read from its file. */
  text(entry: MemoryEntry): string {
    return entryText(readEntry(this.root, entry.file) ?? '', entry.kind);
  }

  /** Every entry, newest written first where known. */
  list(persist = true): MemoryEntry[] {
    this.refresh(persist);
    return [...this.held.values()].map((h) => h.entry).sort((a, b) => (b.created ?? '').localeCompare(a.created ?? ''));
  }

  get(id: string, persist = true): MemoryEntry | undefined {
    this.refresh(persist);
    return this.held.get(id)?.entry;
  }

  /** Entries holding a term of the query, best first (refreshed first). */
  rank(query: string, persist = true): (Ranked<string> & { entry: MemoryEntry })[] {
    this.refresh(persist);
    return this.index.search(query).map((r) => ({ ...r, entry: this.held.get(r.key)!.entry }));
  }

  /** Whether the files an entry cites still hold what they held when it was written. */
  staleness(entry: MemoryEntry): StaleCheck {
    const changed = entry.files.filter((f) => this.currentHash(f.path) !== f.sha256).map((f) => f.path);
    return { stale: changed.length > 0, changed };
  }

  /** The SHA-256 of a workspace file now, where it really is; undefined when it is gone, outside, secret-like or not plainly a file. */
  private currentHash(relative: string): string | undefined {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync.native(this.root);
    } catch {
      return undefined;
    }
    // Hashed again only when the file changed (size, time, inode): listing memory must not re-read every cited file.
    let key: string;
    try {
      const real = fs.realpathSync.native(path.resolve(realRoot, relative));
      const stat = fs.statSync(real);
      key = `${real}\0${stat.ino}\0${stat.size}\0${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    if (this.hashes.has(key)) return this.hashes.get(key);
    const sha256 = citedHash(realRoot, relative)?.sha256;
    if (this.hashes.size > 10_000) this.hashes.clear();
    this.hashes.set(key, sha256);
    return sha256;
  }

  /** The workspace files a text mentions (`src/a.ts`, `lib/x.js:12`), each with its hash now: what an observation cites. */
  citedIn(text: string): CitedFile[] {
    const cited: CitedFile[] = [];
    const seen = new Set<string>();
    for (const match of text.matchAll(/(?:^|[\s`'"([<])((?:\.{0,2}\/)?(?:[\w@.+-]+\/)*[\w@+-][\w@.+-]*\.[A-Za-z0-9]{1,12})(?=$|[\s`'")\]>,;:!?])/g)) {
      const candidate = match[1]!.replace(/^\.\//, '');
      const file = path.resolve(this.root, candidate);
      const relative = path.relative(this.root, file).split(path.sep).join('/');
      if (seen.has(relative) || !isWithin(this.root, file) || relative.startsWith('.peon/memory/')) continue;
      seen.add(relative);
      const sha256 = this.currentHash(relative);
      if (sha256) cited.push({ path: relative, sha256 });
      if (cited.length === MAX_CITED) break;
    }
    return cited;
  }

  private newId(prefix: 'obs' | 'sum', dir: string): string {
    for (;;) {
      const id = `${prefix}-${randomBytes(3).toString('hex')}`;
      if (!this.held.has(id) && !fs.existsSync(path.join(dir, `${id}.md`))) return id;
    }
  }

  /** Writes a new observation or summary, indexes it and rewrites index.md. */
  async write(kind: 'observation' | 'decision' | 'summary', body: string, options: { title?: string; files?: readonly CitedFile[]; source?: string; date?: Date } = {}): Promise<MemoryEntry> {
    this.refresh();
    const summary = kind === 'summary';
    const dir = this.folder(summary ? 'summaries' : 'observations');
    const id = this.newId(summary ? 'sum' : 'obs', dir);
    const title = options.title ?? titleOf(body, id);
    const created = (options.date ?? new Date()).toISOString();
    const text = formatEntry({ id, kind, title, body, created, files: options.files ?? [], ...(options.source ? { source: options.source } : {}) });
    const file = path.join(dir, `${id}.md`);
    await atomicWrite(file, Buffer.from(text));
    const stat = fs.statSync(file);
    this.load(id, file, summary ? 'summary' : 'observation', stat.mtimeMs, stat.size);
    await this.writeIndex();
    this.saveIfDirty();
    return this.held.get(id)!.entry;
  }

  /** "Remember this": an observation of a message, titled by its first line, citing the files it mentions. */
  remember(message: string, source?: string): Promise<MemoryEntry> {
    const firstLine = message.split('\n').find((l) => l.trim() !== '') ?? 'Remembered';
    const title = titleOf(firstLine, 'Remembered').slice(0, 120);
    return this.write('observation', message, { title, files: this.citedIn(message), ...(source ? { source } : {}) });
  }

  /** Removes an entry Peon wrote (observation or summary); curated files are the person's to edit. The file's text is returned. */
  async delete(id: string): Promise<string> {
    const entry = this.get(id);
    if (!entry) throw new Error(`There is no memory entry ${id}.`);
    if (entry.kind === 'curated') throw new Error(`${entry.file} is a curated file; edit or delete it yourself.`);
    const file = path.join(this.root, entry.file);
    const text = readBounded(file, MAX_ENTRY_BYTES) ?? '';
    await fs.promises.rm(file);
    this.held.delete(id);
    this.index.delete(id);
    this.dirty = true;
    await this.writeIndex();
    this.saveIfDirty();
    return text;
  }

  /** Puts a deleted observation or summary back exactly as it was (the panel's Undo): its id, or an error when the place is taken. */
  async restore(id: string, text: string): Promise<MemoryEntry> {
    const summary = id.startsWith('sum-');
    if (!MEMORY_ID.test(id) || id.startsWith('cur-')) throw new Error(`${id} is not an entry Peon wrote.`);
    const dir = this.folder(summary ? 'summaries' : 'observations');
    const file = path.join(dir, `${id}.md`);
    writeExclusive(file, text);
    const stat = fs.statSync(file);
    this.load(id, file, summary ? 'summary' : 'observation', stat.mtimeMs, stat.size);
    await this.writeIndex();
    this.saveIfDirty();
    return this.held.get(id)!.entry;
  }

  private saveIfDirty(): void {
    if (!this.dirty) return;
    this.dirty = false;
    // Only into a memory folder that exists already and is real: a search over a workspace with no memory creates nothing.
    const dir = realFolder(this.root, [], false);
    if (dir) saveCache(dir, this.held, this.index);
  }

  /** .peon/memory/index.md: one line per entry, id and title, rewritten whole. */
  private async writeIndex(): Promise<void> {
    // What another process (the CLI beside the panel) wrote meanwhile is listed too.
    this.refresh(false);
    const lines = [...this.held.values()]
      .map((h) => h.entry)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((e) => `- ${e.id} (${e.kind}): ${e.title.replace(/\s+/g, ' ')}`);
    const text = `# Memory index\n\nOne line per memory entry (id, kind, title). Peon rewrites this file whenever an entry is written or deleted.\n\n${lines.join('\n')}\n`;
    await atomicWrite(path.join(this.folder(), INDEX_FILE), Buffer.from(text));
  }

  /** A folder of the memory to write in: real, inside the workspace, created as needed; a link on the way refuses the write. */
  private folder(...parts: string[]): string {
    const dir = realFolder(this.root, parts, true);
    if (!dir) throw new Error(`${path.join(MEMORY_DIR, ...parts)} is a link or not a folder, so memory is not written there.`);
    return dir;
  }
}

/** At most MAX_ENTRY_BYTES of an entry file (a regular file with one name) as UTF-8; undefined when it cannot be read. */
const readEntry = (root: string, relative: string): string | undefined =>
  relative === 'AGENTS.md' ? readProjectFile(root, relative, MAX_ENTRY_BYTES) : readBounded(path.join(root, relative), MAX_ENTRY_BYTES);

const stores = new Map<string, MemoryStore>();

/** The one store of a workspace root. */
export function memoryStore(root: string): MemoryStore {
  let store = stores.get(root);
  if (!store) stores.set(root, (store = new MemoryStore(root)));
  return store;
}
