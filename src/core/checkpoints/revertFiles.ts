// Reverting files across several steps (DESIGN.md §10): a turn, everything after a
// message, one file a turn changed twice. Each file's history — what every step did to
// it, oldest first — is undone newest first, so the file ends as it was before the first.
// A file that is no longer what the last step left stops there as a conflict with its
// three versions, and is written only when the person says so (`force`). A deleted file
// whose content the checkpoints no longer hold (pruned, above the size cap) comes back
// from the trash, where the delete tool kept a copy.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Trash } from '../workspace/trash';
import type { Checkpoints, FileChange, Step } from './checkpoints';

export interface StepChange {
  readonly step: Step;
  readonly change: FileChange;
}

/** One file across steps: its folder, its path (the last one, after a move), and what each step did to it, oldest first. */
export interface FileHistory {
  readonly root: string;
  readonly path: string;
  readonly changes: readonly StepChange[];
}

/** What a file history comes to: created, modified, deleted, moved, or nothing at all (made then removed, changed then changed back). */
export interface NetChange {
  readonly kind: FileChange['kind'] | 'none';
  /** A moved file's first path. */
  readonly from?: string;
  readonly restorable: boolean;
}

/** A file that changed again since: nothing was written. `history`: what is left to undo (oldest first). */
export interface FileConflict {
  readonly history: FileHistory;
  /** Before the first step, what the last step left, and the file now (absent: no such file, or not kept). */
  readonly before?: Buffer;
  readonly after?: Buffer;
  readonly current?: Buffer;
}

export interface FilesReverted {
  readonly restored: readonly StepChange[];
  readonly conflicts: readonly FileConflict[];
  readonly lost: readonly { readonly history: FileHistory; readonly change: FileChange; readonly why: string }[];
}

const key = (root: string, rel: string): string => `${root}\0${rel}`;

/** The files these steps changed, each with its history (steps in time order; a moved file followed to its new path). */
export function filesOf(steps: readonly Step[]): FileHistory[] {
  const files = new Map<string, { root: string; path: string; changes: StepChange[] }>();
  for (const step of [...steps].sort((a, b) => a.at - b.at)) {
    for (const change of step.changes) {
      const moved = change.kind === 'renamed' && change.from !== undefined ? files.get(key(change.root, change.from)) : undefined;
      if (moved) files.delete(key(change.root, change.from!));
      const there = files.get(key(change.root, change.path));
      const file = moved ?? there ?? { root: change.root, path: change.path, changes: [] };
      // Moved onto a path with a history of its own (changed, deleted, then taken by the
      // move): that history joins this one, in time order, so undoing it newest first
      // moves the file back before the one displaced comes back.
      if (moved && there) file.changes = [...there.changes, ...file.changes].sort((a, b) => a.step.at - b.step.at);
      file.path = change.path;
      file.changes.push({ step, change });
      files.set(key(change.root, change.path), file);
    }
  }
  return [...files.values()].sort((a, b) => (a.root === b.root ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.root < b.root ? -1 : 1));
}

/** What a history comes to, from before its first step to after its last. */
export function netChange(history: FileHistory): NetChange {
  const first = history.changes[0]?.change;
  const last = history.changes[history.changes.length - 1]?.change;
  const restorable = history.changes.every((c) => c.change.restorable);
  if (!first || !last) return { kind: 'none', restorable };
  const original = firstPath(history);
  if (first.before === undefined && last.after === undefined) return { kind: 'none', restorable };
  if (first.before === undefined) return { kind: 'created', restorable };
  if (last.after === undefined) return { kind: 'deleted', restorable };
  if (original !== undefined && original !== history.path) return { kind: 'renamed', from: original, restorable };
  if (first.before === last.after) return { kind: 'none', restorable };
  return { kind: 'modified', restorable };
}

/** Where a moved file started: the `from` of its first move. */
function firstPath(history: FileHistory): string | undefined {
  for (const { change } of history.changes) if (change.kind === 'renamed') return change.from;
  return undefined;
}

/**
 * Undoes each history newest step first. `force`: the person chose to restore these
 * files whatever they hold now (they saw the conflict's three versions).
 */
export async function revertFiles(checkpoints: Checkpoints, histories: readonly FileHistory[], options: { force?: boolean; trash?: Trash } = {}): Promise<FilesReverted> {
  const restored: StepChange[] = [];
  const conflicts: FileConflict[] = [];
  const lost: { history: FileHistory; change: FileChange; why: string }[] = [];
  for (const history of histories) {
    const newestFirst = [...history.changes].reverse();
    for (const [i, { step, change }] of newestFirst.entries()) {
      const name = path.join(change.root, change.path);
      const result = await checkpoints.revert(step.id, { paths: [name], ...(options.force ? { force: [name] } : {}) });
      if (result.restored.length > 0) {
        restored.push({ step, change });
        continue;
      }
      const conflict = result.conflicts[0];
      if (conflict) {
        const left = { root: history.root, path: history.path, changes: newestFirst.slice(i).reverse() };
        const oldest = left.changes[0]!.change;
        const before = checkpoints.content(oldest, 'before');
        conflicts.push({ history: left, ...(before ? { before } : {}), ...(conflict.after ? { after: conflict.after } : {}), ...(conflict.current ? { current: conflict.current } : {}) });
        break;
      }
      const missing = result.lost[0];
      if (missing && change.kind === 'deleted' && options.trash && (await fromTrash(options.trash, name, change.before))) {
        restored.push({ step, change });
        continue;
      }
      if (missing) lost.push({ history, change, why: missing.why });
      break;
    }
  }
  return { restored, conflicts, lost };
}

/** Puts a deleted file back from the trash: the newest copy of it there whose content is the one the step deleted. */
async function fromTrash(trash: Trash, file: string, id: string | undefined): Promise<boolean> {
  if (id === undefined || fs.existsSync(file)) return false;
  const copies = (await trash.list()).filter((e) => e.originalPath === file && e.linkTarget === undefined).reverse();
  for (const copy of copies) {
    const bin = path.join(trash.dir, `${copy.id}.bin`);
    if ((await blobId(bin).catch(() => undefined)) !== id) continue;
    await trash.restore(copy.id);
    return true;
  }
  return false;
}

/** A file's git blob id, read as a stream (a copy in the trash may be larger than memory should hold). */
async function blobId(file: string): Promise<string> {
  const { size } = await fs.promises.stat(file);
  const hash = createHash('sha1').update(`blob ${size}\0`);
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
