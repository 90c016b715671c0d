// What a call's outcome says of its checkpoint (the panel's card, `peon run --json`):
// the step's id and each file it changed, by path and kind — the contents stay in the
// shadow repository, reached through the step's id.
import type { ChangeKind, Step } from './checkpoints';

export interface StepChanges {
  readonly step: string;
  readonly files: readonly { readonly root: string; readonly path: string; readonly kind: ChangeKind; readonly from?: string; readonly restorable: boolean }[];
  /** Why the changes are not known. */
  readonly untracked?: string;
  /** Other steps ran at the same time: these may include their changes. */
  readonly overlapped?: true;
}

export function stepChanges(step: Step): StepChanges {
  return {
    step: step.id,
    files: step.changes.map((c) => ({ root: c.root, path: c.path, kind: c.kind, ...(c.from !== undefined ? { from: c.from } : {}), restorable: c.restorable })),
    ...(step.untracked ? { untracked: step.untracked } : {}),
    ...(step.overlapped ? { overlapped: true as const } : {}),
  };
}

/** "changed 3 files, deleted 1": what a card says of a step. */
export function describeChanges(changes: StepChanges): string {
  if (changes.untracked) return `changes not tracked: ${changes.untracked}`;
  const count = (kind: ChangeKind): number => changes.files.filter((f) => f.kind === kind).length;
  const parts = [
    ['created', count('created')],
    ['changed', count('modified')],
    ['deleted', count('deleted')],
    ['moved', count('renamed')],
  ] as const;
  const said = parts.filter(([, n]) => n > 0).map(([verb, n], i) => `${verb} ${n}${i === 0 ? ` file${n === 1 ? '' : 's'}` : ''}`);
  return said.length > 0 ? said.join(', ') : 'changed no files';
}
