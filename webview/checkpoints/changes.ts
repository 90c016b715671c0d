// What the checkpoint components share: how a change reads, and the context key that
// makes a transcript's changes read-only (a subagent's, opened from the strip: its
// steps are reverted from the chat's own list at the end of the turn).
import type { ChangeKind } from '../../src/shared/messages';
import type { CodiconName } from '../transcript/codicons';

export const CHANGES_READ_ONLY = Symbol('peon.changesReadOnly');

export const KINDS: Record<ChangeKind, { word: string; letter: string; icon: CodiconName }> = {
  created: { word: 'created', letter: 'A', icon: 'diff-added' },
  modified: { word: 'modified', letter: 'M', icon: 'diff-modified' },
  deleted: { word: 'deleted', letter: 'D', icon: 'diff-removed' },
  renamed: { word: 'moved', letter: 'R', icon: 'diff-renamed' },
};

/** A path as its name and the folder it is in ("src/a/index.js" → "index.js", "src/a"). */
export function splitPath(path: string): { name: string; dir: string } {
  const at = path.lastIndexOf('/');
  return at === -1 ? { name: path, dir: '' } : { name: path.slice(at + 1), dir: path.slice(0, at) };
}

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
