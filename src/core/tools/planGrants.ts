// What a plan may declare it will touch (exitplanmode's `allow`), checked where it is
// declared and again where a saved conversation brings it back: globs relative to the
// workspace and command patterns that name their command. Nothing that reads as more than
// it says: no negation (`!README.md` is every other file), no braces or extglobs, no `..`,
// no pattern that starts with a wildcard (`*` is every command).

import picomatch from 'picomatch';

const EVERY_SHAPE = ['a', 'a.b', '.h', 'x/y', 'x/y/z.q', 'x/.h/y.b'];

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\0-\u001f\u007f]/;

/** Why `glob` cannot be a plan's file grant, or undefined. */
export function planGlobProblem(glob: string): string | undefined {
  if (CONTROL.test(glob)) return 'one line, no control characters';
  if (glob.startsWith('/') || glob.startsWith('~') || /^[A-Za-z]:/.test(glob)) return 'a glob relative to the workspace';
  if (glob.split('/').includes('..')) return 'no .. segments';
  if (glob.startsWith('./') || glob.includes('//')) return 'write it as the workspace shows paths: `src/**`, not `./src/**`';
  if (/[!{}()[\]]/.test(glob)) return 'only *, ** and ? as wildcards (no !, braces, brackets or parentheses)';
  // Every shape of path a workspace holds: a glob matching them all is every file, however it is spelled.
  if (EVERY_SHAPE.every((p) => picomatch.isMatch(p, glob, { dot: true }))) return 'name a folder or a kind of file, not every file';
  return undefined;
}

/** Why a plan's globs together cannot be granted: between them, every file. */
export function planGlobsProblem(globs: readonly string[]): string | undefined {
  const every = globs.length > 0 && EVERY_SHAPE.every((p) => globs.some((glob) => picomatch.isMatch(p, glob, { dot: true })));
  return every ? 'between them these globs cover every file: name the folders or kinds of file the plan changes' : undefined;
}

/** Why `pattern` cannot be a plan's command grant, or undefined. */
export function planCommandProblem(pattern: string): string | undefined {
  if (CONTROL.test(pattern)) return 'one line, no control characters';
  const first = pattern.trim().split(/\s+/)[0] ?? '';
  if (first === '' || /[*?]/.test(first)) return 'start with the command itself (`npm test`, `npm run build *`), not a wildcard';
  return undefined;
}
