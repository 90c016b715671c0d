// Deleted files are kept here so the user can restore them (DESIGN.md §4 delete).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tools/toolError';
import { atomicWrite } from './atomicWrite';

export interface TrashEntry {
  readonly id: string;
  readonly originalPath: string;
  readonly size: number;
  readonly mode: number;
  readonly deletedAt: string;
  /** Set when a symbolic link was deleted: what it pointed to. */
  readonly linkTarget?: string;
}

export class Trash {
  constructor(readonly dir: string) {}

  async keep(originalPath: string, content: Uint8Array, mode: number): Promise<TrashEntry> {
    const entry = await this.newEntry({ originalPath, size: content.byteLength, mode });
    await atomicWrite(path.join(this.dir, `${entry.id}.bin`), content, 0o600);
    return this.save(entry);
  }

  /** Keeps a copy of the file at `source` without reading it into memory. */
  async keepCopy(originalPath: string, source: string, size: number, mode: number): Promise<TrashEntry> {
    const entry = await this.newEntry({ originalPath, size, mode });
    await fs.copyFile(source, path.join(this.dir, `${entry.id}.bin`));
    return this.save(entry);
  }

  async keepLink(originalPath: string, linkTarget: string): Promise<TrashEntry> {
    return this.save(await this.newEntry({ originalPath, size: 0, mode: 0o777, linkTarget }));
  }

  private async newEntry(fields: Omit<TrashEntry, 'id' | 'deletedAt'>): Promise<TrashEntry> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    return { id, ...fields, deletedAt: new Date().toISOString() };
  }

  private async save(entry: TrashEntry): Promise<TrashEntry> {
    await atomicWrite(path.join(this.dir, `${entry.id}.json`), Buffer.from(JSON.stringify(entry, null, 2)), 0o600);
    return entry;
  }

  async list(): Promise<TrashEntry[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const entries = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await fs.readFile(path.join(this.dir, n), 'utf8')) as TrashEntry),
    );
    return entries.sort((a, b) => a.deletedAt.localeCompare(b.deletedAt));
  }

  /** One entry, or undefined when there is none by that id (restored, or never kept). */
  async get(id: string): Promise<TrashEntry | undefined> {
    if (!TRASH_ID.test(id)) return undefined;
    try {
      return JSON.parse(await fs.readFile(path.join(this.dir, `${id}.json`), 'utf8')) as TrashEntry;
    } catch {
      return undefined;
    }
  }

  /**
   * Puts the file back where it was, or at `to` (beside it, when its place is taken
   * again); refuses to overwrite anything that exists there now.
   */
  async restore(id: string, to?: string): Promise<TrashEntry> {
    if (!TRASH_ID.test(id)) throw new ToolError('invalid_input', `No trash entry ${JSON.stringify(id)}.`);
    const meta = path.join(this.dir, `${id}.json`);
    const entry = await this.get(id);
    if (!entry) throw new ToolError('not_found', `No trash entry ${id}.`);
    const target = to ?? entry.originalPath;
    const exists = await fs.lstat(target).then(() => true, () => false);
    if (exists) throw new ToolError('already_exists', `${target} exists again; move it away before restoring.`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (entry.linkTarget !== undefined) await fs.symlink(entry.linkTarget, target);
    else await atomicWrite(target, await fs.readFile(path.join(this.dir, `${id}.bin`)), entry.mode);
    await fs.rm(path.join(this.dir, `${id}.bin`), { force: true });
    await fs.rm(meta, { force: true });
    return entry;
  }
}

const TRASH_ID = /^[a-z0-9]+-[0-9a-f]{8}$/;

/** A free name beside `file` for a copy coming back where the file exists again: `name (restored).ext`, then `(restored 2)`, … */
export async function freeNameBeside(file: string): Promise<string> {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = `${stem} (restored${n === 1 ? '' : ` ${n}`})${ext}`;
    if (!(await fs.lstat(candidate).then(() => true, () => false))) return candidate;
  }
}
