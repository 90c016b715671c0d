// A command's words as the paths the kernel will resolve them to (gate review F6, F7,
// F10, F11): every `..` applies to the real folder reached so far, as the kernel does
// it, not to the name as written; the check is made from every folder the line may be
// in. `read` says why reading a path must ask; `change` why changing it is destructive;
// `lookup` why a bare command name may not run what it seems to (PATH); `toolchain` why
// a version query may run a program the project picks.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin, type ResolvedPath } from '../workspace/workspace';
import { TOOLCHAIN_FILES, type PathCheck } from './commandJudge';
import type { ChangeCheck } from './destructive';
import type { GateInput } from './gate';

const real = (p: string): string => {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
};

/**
 * Where `arg`, taken from `cwd`, leads as the kernel resolves it, up to its last part:
 * a symbolic link on the way is followed before a later `..` applies. The last part is
 * left as named (the caller decides whether it follows a link there), unless the word
 * ends in `/`. A part that does not exist is taken as written.
 */
export function physicalPath(cwd: string, arg: string): string {
  const parts = arg.split('/');
  const followLast = arg.endsWith('/');
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  let at = path.isAbsolute(arg) ? '/' : real(cwd);
  parts.forEach((part, i) => {
    if (part === '' || part === '.') return;
    if (part === '..') at = path.dirname(at);
    else at = i < parts.length - 1 || followLast ? real(path.join(at, part)) : path.join(at, part);
  });
  return at;
}

/** Files a redirection or a command may write that are no file at all. */
const DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero']);

export interface CommandPaths {
  readonly read: PathCheck;
  readonly change: ChangeCheck;
  /** Why running the bare name `name` through PATH may start a program of the workspace. */
  lookup(name: string): string | undefined;
  /** Why a version query may run a program the project names (asdf, mise, pyenv files), or undefined. */
  toolchain(): string | undefined;
}

export function commandPaths(input: GateInput, cwds: readonly string[]): CommandPaths {
  const resolveEach = (arg: string, how: 'read' | 'entry' | 'into', judge: (p: ResolvedPath) => string | undefined): string | undefined => {
    if (!input.resolve) return `${arg}: paths cannot be checked here`;
    for (const cwd of cwds) {
      let p: ResolvedPath;
      try {
        const at = physicalPath(cwd, arg);
        if (how === 'into' && (DEVICES.has(at) || /^\/dev\/fd\/\d+$/.test(at))) continue;
        p = how === 'entry' && !arg.endsWith('/') && input.resolveLink ? input.resolveLink(at) : input.resolve(at);
      } catch {
        return `${arg} is not a path Peon can check`;
      }
      const why = judge(p);
      if (why) return why;
    }
    return undefined;
  };
  const roots = input.roots ?? [];
  const pathEntries = (input.env?.PATH ?? process.env.PATH ?? '').split(path.delimiter);
  const unsafeEntry = pathEntries.find((dir) => !path.isAbsolute(dir) || roots.some((root) => isWithin(root, real(dir))));
  return {
    read: (arg) =>
      resolveEach(arg, 'read', (p) => {
        if (!p.inside) return `${arg} is outside the workspace`;
        if (p.secretReasons.length > 0) return `${arg}: ${p.secretReasons[0]}`;
        if (p.protectedReason) return `${arg} is protected: ${p.protectedReason}`;
        if (p.ignored) return `${arg} is ignored (.gitignore or .peonignore)`;
        return undefined;
      }),
    change: (arg, how) =>
      resolveEach(arg, how, (p) => {
        if (!p.inside) return `${arg}, outside the workspace`;
        if (how === 'entry' && p.relative === '') return `${arg}, a workspace folder itself`;
        if (p.protectedReason) return `${arg}, which is protected (${p.protectedReason})`;
        return undefined;
      }),
    lookup: (name) =>
      name.includes('/') || unsafeEntry === undefined
        ? undefined
        : `PATH has ${unsafeEntry === '' ? 'an empty entry' : unsafeEntry}, ${path.isAbsolute(unsafeEntry) ? 'inside the workspace' : 'which is relative'}, so ${name} may run a program from the workspace`,
    toolchain: () => {
      for (const cwd of cwds) {
        for (let dir = real(cwd); ; dir = path.dirname(dir)) {
          const file = TOOLCHAIN_FILES.find((f) => fs.existsSync(path.join(dir, f)));
          if (file) return `${path.join(dir, file)} lets a version manager pick which program runs`;
          if (path.dirname(dir) === dir) break;
        }
      }
      return undefined;
    },
  };
}
