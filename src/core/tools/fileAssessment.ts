// What every file tool's assessment shares: the risk a path adds, and the reasons a
// card shows for it.
import type { ResolvedPath } from '../workspace/workspace';
import type { Assessment, Proposal, Risk } from './contract';

/** Larger changes get no "Open diff" proposal: the inline diff shows them, and memory stays bounded. */
export const PROPOSAL_MAX_BYTES = 5 * 1024 * 1024;

/** A read's effective risk: secret-like or outside paths raise it to `filesystem` (DESIGN.md §3). */
export function readRisk(paths: readonly ResolvedPath[]): Risk {
  return paths.some((p) => !p.inside || p.secretReasons.length > 0) ? 'filesystem' : 'read_only';
}

/**
 * Paths the gate asks about for what they are (outside, secret-like, protected, ignored):
 * a call's checks against such a file (exists? its hash?) wait until it is approved, so
 * no error tells the model anything about it before a person said yes (gate review F9).
 */
export const isSensitive = (p: ResolvedPath): boolean => !p.inside || p.secretReasons.length > 0 || p.protectedReason !== undefined || p.ignored;

export function pathNotes(p: ResolvedPath): string[] {
  const notes: string[] = [];
  if (!p.inside) notes.push('outside the workspace');
  notes.push(...p.secretReasons);
  if (p.ignored) notes.push('ignored by .gitignore or .peonignore');
  if (p.protectedReason) notes.push(`protected: ${p.protectedReason}`);
  if (p.isSymlink) notes.push(`a symbolic link to ${p.canonical}`);
  return notes;
}

/** The assessment of a call that changes one file: always `filesystem` risk, a diff on the card. */
export function fileChange(
  target: ResolvedPath,
  operation: 'create' | 'overwrite' | 'edit' | 'delete',
  diff: string,
  prepared?: unknown,
  notesFrom: ResolvedPath = target,
  proposal?: Proposal,
): Assessment {
  return {
    risk: 'filesystem',
    writes: true,
    paths: [target],
    summary: { kind: 'file-change', path: target.display, operation, diff, reasons: pathNotes(notesFrom) },
    ...(prepared === undefined ? {} : { prepared }),
    ...(proposal ? { proposal } : {}),
  };
}

/** The assessment of a call that only looks at one path (read, list, glob, grep). */
export function fileAccess(target: ResolvedPath): Assessment {
  return { risk: readRisk([target]), writes: false, paths: [target], summary: { kind: 'file-access', path: target.display, reasons: pathNotes(target) } };
}
