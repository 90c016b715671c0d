// Checkpoints as the panel lists them (src/shared/checkpoints.ts): a step's files for its
// tool card, a turn's files for the list at its end — each named as the panel names
// workspace files (relative to its folder, `folder/…` with several), bounded.
import path from 'node:path';
import type { FileChange } from '../core/checkpoints/checkpoints';
import { netChange, type FileHistory } from '../core/checkpoints/revertFiles';
import { describeChanges, type StepChanges } from '../core/checkpoints/stepChanges';
import { MAX_LISTED_FILES, type ChangedFile, type StepChangesView } from '../shared/checkpoints';
import { workspaceRelative } from './workspaceFile';

/** How the panel names a file of a folder (`root`: canonical, `rel`: '/'-separated). */
export type FileNames = (root: string, rel: string) => string;

/** Names relative to the folder: one folder's workspace, and tests. */
export const relativeNames: FileNames = (_root, rel) => rel;

/** Names as the workspace's folders make them: `folder/…` when there are several. */
export function folderNames(folders: () => readonly { name: string; root: string }[]): FileNames {
  return (root, rel) => workspaceRelative(path.join(root, ...rel.split('/')), folders()) ?? rel;
}

const bounded = (name: string): string => (name.length > 4096 ? `…${name.slice(-4095)}` : name);

/** A change as a row of a card: its name, what happened, whether it can be put back. */
export function changedFile(change: Pick<FileChange, 'root' | 'path' | 'kind' | 'from' | 'restorable'>, names: FileNames): ChangedFile {
  return { path: bounded(names(change.root, change.path)), kind: change.kind, ...(change.from !== undefined ? { from: bounded(names(change.root, change.from)) } : {}), restorable: change.restorable };
}

/** What a step's tool card shows of its checkpoint. */
export function stepChangesView(changes: StepChanges, names: FileNames): StepChangesView {
  const files = changes.files.slice(0, MAX_LISTED_FILES).map((f) => changedFile(f, names));
  const more = changes.files.length - files.length;
  return {
    step: changes.step,
    summary: describeChanges(changes),
    files,
    ...(more > 0 ? { more } : {}),
    ...(changes.untracked ? { untracked: changes.untracked.slice(0, 2000) } : {}),
    ...(changes.overlapped ? { overlapped: true as const } : {}),
  };
}

/** A turn's files: each file's histories as what it came to (a file made and removed again is not listed). */
export function turnFiles(histories: readonly FileHistory[], names: FileNames): { history: FileHistory; file: ChangedFile }[] {
  const out: { history: FileHistory; file: ChangedFile }[] = [];
  for (const history of histories) {
    const net = netChange(history);
    if (net.kind === 'none') continue;
    out.push({ history, file: changedFile({ root: history.root, path: history.path, kind: net.kind, ...(net.from !== undefined ? { from: net.from } : {}), restorable: net.restorable }, names) });
  }
  return out;
}
