// What every file tool's assessment shares: the risk a path adds, and the reasons a
// card shows for it.
import type { ResolvedPath } from '../workspace/workspace';
import type { Risk } from './contract';

/** A read's effective risk: secret-like or outside paths raise it to `filesystem` (DESIGN.md §3). */
export function readRisk(paths: readonly ResolvedPath[]): Risk {
  return paths.some((p) => !p.inside || p.secretReasons.length > 0) ? 'filesystem' : 'read_only';
}

export function pathNotes(p: ResolvedPath): string[] {
  const notes: string[] = [];
  if (!p.inside) notes.push('outside the workspace');
  notes.push(...p.secretReasons);
  if (p.ignored) notes.push('ignored by .gitignore or .peonignore');
  if (p.protectedReason) notes.push(`protected: ${p.protectedReason}`);
  if (p.isSymlink) notes.push(`a symbolic link to ${p.canonical}`);
  return notes;
}
