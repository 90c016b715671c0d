// One file of a step put back as it was before the step (DESIGN.md §10), as carefully as
// a write tool: through no folder that has become a link, over nothing the person put in
// its place since (another content, another mode, a link, a FIFO), with its mode and
// owner; what stands in the way is a conflict with the file's versions, or a reason.
import fs from 'node:fs';
import path from 'node:path';
import { atomicWrite } from '../workspace/atomicWrite';
import type { Conflict, FileChange } from './checkpoints';
import { ObjectStore } from './objectStore';
import { blockedPath, readRegular } from './regularFile';

/**
 * One file of a step put back as it was before it. Nothing is written or removed through a
 * folder that is now a link; a file that is not what the step left (other content, another
 * mode, a link or a FIFO in its place) is a conflict unless `forced` (the person saw its
 * versions and chose).
 */
export async function revertOne(store: ObjectStore, change: FileChange, forced: boolean): Promise<'restored' | { why: string } | Omit<Conflict, 'change'>> {
  const file = path.join(change.root, change.path);
  const blocked = blockedPath(change.root, change.path) ?? (change.from !== undefined ? blockedPath(change.root, change.from) : undefined);
  if (blocked) return { why: blocked };
  if (!forced && !leftAsStepLeft(file, change.after, change.afterMode)) return sides(store, change, file);
  if (change.before !== undefined && !store.has(change.before)) {
    return { why: change.restorable ? 'its earlier content was pruned from the checkpoints (storage is capped)' : 'it was larger than the size kept for checkpoints' };
  }
  if (change.kind === 'renamed' && change.from !== undefined) {
    const from = path.join(change.root, change.from);
    // Where it was moved from must be free again (or hold what it held then).
    if (!forced && presence(from).kind !== 'absent' && !leftAsStepLeft(from, change.before, undefined)) return sides(store, change, from);
    fs.mkdirSync(path.dirname(from), { recursive: true });
    await atomicWrite(from, store.read(change.before!), change.beforeMode, change.beforeOwner);
    fs.rmSync(file, { force: true });
  } else if (change.before === undefined) {
    fs.rmSync(file, { force: true }); // it was made by the step (its content stays in the store)
  } else {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await atomicWrite(file, store.read(change.before), change.beforeMode, change.beforeOwner);
  }
  return 'restored';
}

/** What is at `file` now: a regular file's content id and mode, nothing, or something else. */
function presence(file: string): { kind: 'file'; id: string; mode: number } | { kind: 'absent' | 'other' } {
  const found = readRegular(file);
  if (found === 'absent' || found === 'other') return { kind: found };
  return { kind: 'file', id: ObjectStore.idOf(found.bytes), mode: found.stat.mode & 0o7777 };
}

/** Whether `file` is as the step left it: `id` its content (undefined: no file), `mode` its mode when known. */
function leftAsStepLeft(file: string, id: string | undefined, mode: number | undefined): boolean {
  const now = presence(file);
  if (id === undefined) return now.kind === 'absent';
  return now.kind === 'file' && now.id === id && (mode === undefined || now.mode === mode);
}

/** The conflict's versions: what is there now (a regular file's bytes only), before and after the step. */
function sides(store: ObjectStore, change: FileChange, file: string): Omit<Conflict, 'change'> {
  const read = (sha: string | undefined): Buffer | undefined => (sha && store.has(sha) ? store.read(sha) : undefined);
  const found = readRegular(file);
  const current = typeof found === 'string' ? undefined : found.bytes;
  const before = read(change.before);
  const after = read(change.after);
  return { ...(current ? { current } : {}), ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
