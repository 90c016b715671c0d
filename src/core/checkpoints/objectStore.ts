// The shadow repository's object store (DESIGN.md §10): file contents kept as git loose
// objects (`blob <size>\0<bytes>`, zlib, under objects/xx/…), so a checkpoint's git folder
// is a real one `git --git-dir=… cat-file -p <sha>` can read, and a content stored twice
// is stored once. Written and read here, in process: a step costs no git process. The
// user's own repository is never read or written; this folder is Peon's alone.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';

export class ObjectStore {
  constructor(readonly gitDir: string) {}

  /** Makes the folder a (bare) git repository if it is not one yet. */
  init(): void {
    fs.mkdirSync(path.join(this.gitDir, 'objects'), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(this.gitDir, 'refs', 'heads'), { recursive: true });
    const head = path.join(this.gitDir, 'HEAD');
    if (!fs.existsSync(head)) fs.writeFileSync(head, 'ref: refs/heads/main\n');
    const config = path.join(this.gitDir, 'config');
    if (!fs.existsSync(config)) fs.writeFileSync(config, '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
  }

  /** The git id of `bytes` as a blob, and the blob stored (once). */
  write(bytes: Buffer): string {
    const header = Buffer.from(`blob ${bytes.length}\0`);
    const sha = createHash('sha1').update(header).update(bytes).digest('hex');
    const file = this.file(sha);
    if (fs.existsSync(file)) return sha;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temp, zlib.deflateSync(Buffer.concat([header, bytes]), { level: 1 }), { mode: 0o444, flag: 'wx' });
      fs.renameSync(temp, file);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    return sha;
  }

  /** The git id `bytes` would have, nothing stored (a file too large to keep). */
  static idOf(bytes: Buffer): string {
    return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  }

  has(sha: string): boolean {
    return fs.existsSync(this.file(sha));
  }

  /** A stored blob's bytes; throws when it is not stored (pruned, or never kept). */
  read(sha: string): Buffer {
    const raw = zlib.inflateSync(fs.readFileSync(this.file(sha)));
    const nul = raw.indexOf(0);
    if (nul < 0 || !raw.subarray(0, nul).toString().startsWith('blob ')) throw new Error(`object ${sha} is not a blob`);
    return raw.subarray(nul + 1);
  }

  /** Every stored object's id (pruning). */
  list(): string[] {
    const out: string[] = [];
    const objects = path.join(this.gitDir, 'objects');
    for (const dir of safeReaddir(objects)) if (/^[0-9a-f]{2}$/.test(dir)) for (const rest of safeReaddir(path.join(objects, dir))) if (/^[0-9a-f]{38}$/.test(rest)) out.push(dir + rest);
    return out;
  }

  remove(sha: string): void {
    fs.rmSync(this.file(sha), { force: true });
  }

  /** Bytes the store takes on disk. */
  size(): number {
    let total = 0;
    const objects = path.join(this.gitDir, 'objects');
    for (const dir of safeReaddir(objects)) for (const rest of safeReaddir(path.join(objects, dir))) total += fs.statSync(path.join(objects, dir, rest), { throwIfNoEntry: false })?.size ?? 0;
    return total;
  }

  private file(sha: string): string {
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not an object id: ${sha}`);
    return path.join(this.gitDir, 'objects', sha.slice(0, 2), sha.slice(2));
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
