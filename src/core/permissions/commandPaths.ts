// A command's words as the paths the kernel will resolve them to (gate review F6, F7,
// F10, F11): every `..` applies to the real folder reached so far, as the kernel does
// it, not to the name as written; the check is made from every folder the line may be
// in. `read` says why reading a path must ask; `change` why changing it is destructive;
// `lookup` why a bare command name may not run what it seems to (PATH); `toolchain` why
// a version query may run a program the project picks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unwrap } from '../shell/commandWords';
import { RUNS_OTHERS, type ShellSegment } from '../shell/segments';
import { isWithin, type ResolvedPath } from '../workspace/workspace';
import { TOOLCHAIN_FILES, type PathCheck } from './commandJudge';
import type { ChangeCheck } from './destructive';
import type { GateInput } from './gate';

/** Paths whose meaning depends on the process that opens them (`/proc/self/cwd`, `/dev/fd/3`): the gate's process is not the command's. */
const PROCESS_RELATIVE = /^\/(proc|dev\/fd)(\/|$)/;

/** A path that leads through /proc or /dev/fd, where the gate cannot resolve it as the command will. */
export class ProcessRelativePath extends Error {}

const MAX_LINKS = 40;

/**
 * `absolute` with every symbolic link followed, component by component, as the kernel
 * does: each `..` applies to the real folder reached so far. A part that does not exist
 * is taken as written. Throws ProcessRelativePath for a path into /proc or /dev/fd.
 */
function followLinks(absolute: string, links = 0): string {
  let at = '/';
  for (const part of absolute.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = path.dirname(at);
      continue;
    }
    const next = path.join(at, part);
    if (PROCESS_RELATIVE.test(next)) throw new ProcessRelativePath(next);
    let target: string | undefined;
    try {
      if (fs.lstatSync(next).isSymbolicLink()) target = fs.readlinkSync(next);
    } catch {
      // missing: taken as written
    }
    if (target !== undefined && links >= MAX_LINKS) throw new ProcessRelativePath(`${next} (a loop of links)`);
    at = target === undefined ? next : followLinks(path.resolve(at, target), links + 1);
  }
  return at;
}

/**
 * Where `arg`, taken from `cwd`, leads as the kernel resolves it, up to its last part:
 * links on the way are followed before a later `..` applies. The last part is left as
 * named (the caller decides whether it follows a link there), unless the word ends in
 * `/`; where it is a link, it must not lead into /proc either.
 */
export function physicalPath(cwd: string, arg: string): string {
  const absolute = path.isAbsolute(arg) ? arg : `${cwd}/${arg}`;
  const parts = absolute.split('/').filter((p) => p !== '' && p !== '.');
  const last = parts.at(-1);
  if (arg.endsWith('/') || last === undefined || last === '..') return followLinks(absolute);
  const at = path.join(followLinks(`/${parts.slice(0, -1).join('/')}`), last);
  if (PROCESS_RELATIVE.test(at)) throw new ProcessRelativePath(at);
  followLinks(at); // only for what it throws: a link from here into /proc
  return at;
}

const real = (p: string): string => {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
};

export interface LineFolders {
  /** Every folder the line may run a command in: where it starts, and wherever it `cd`s or `pushd`es. */
  readonly cwds: readonly string[];
  /** The segment that changes folder to where Peon cannot see (`cd $X`, `cd -`, `popd`, CDPATH), if any. */
  readonly unseen: string | undefined;
  /** The segments that may create, copy or move names: for the others, a path that does not exist yet may become a link to anywhere. */
  readonly creators: readonly number[];
}

const GIT_WRITES_TREE = new Set(['checkout', 'switch', 'restore', 'reset', 'clone', 'pull', 'merge', 'rebase', 'cherry-pick', 'revert', 'stash', 'worktree', 'apply', 'am', 'read-tree', 'checkout-index', 'submodule']);
const CREATES = new Set(['ln', 'link', 'cp', 'mv', 'install', 'tar', 'bsdtar', 'unzip', '7z', 'cpio', 'rsync', 'patch', 'ar', 'rename', 'mkfifo', 'mknod', 'zip']);

/** The folders `segments` may run in, starting from `start`, and whether they can all be seen. */
export function lineFolders(segments: readonly ShellSegment[], start: string, env: NodeJS.ProcessEnv): LineFolders {
  const cwds = [start];
  let unseen: string | undefined;
  const creators: number[] = [];
  for (const [i, segment] of segments.entries()) {
    const argv = segment.argv && unwrap(segment.argv);
    const name = argv?.[0] ?? (segment.name === undefined ? undefined : path.basename(segment.name));
    // A command name that is not literal may be anything; other words of git may name any subcommand.
    const literalName = name !== undefined && /^[\w.+-]+$/.test(name) && !RUNS_OTHERS.has(name);
    if (!literalName || CREATES.has(name) || (name === 'git' && (!argv || argv.slice(1).some((w) => GIT_WRITES_TREE.has(w))))) creators.push(i);
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') continue;
    const words = (argv ?? []).slice(1).filter((w) => !/^-[LPe@]+$/.test(w) && w !== '--');
    const target = name === 'cd' && words.length === 0 ? (env.HOME ?? os.homedir()) : words[0];
    const viaCdpath = !!env.CDPATH && target !== undefined && !path.isAbsolute(target) && !/^\.\.?(\/|$)/.test(target);
    if (!argv || name === 'popd' || target === undefined || words.length > 1 || /^[-+]/.test(target) || viaCdpath) unseen = segment.text;
    else cwds.push(...cwds.map((cwd) => path.resolve(cwd, target)));
  }
  return { cwds, unseen, creators };
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

/** The checks for the paths of segment `self` (of the line `folders` describes), or of the line as a whole. */
export function commandPaths(input: GateInput, folders: LineFolders, self?: number): CommandPaths {
  const { cwds } = folders;
  const othersCreate = folders.creators.some((i) => i !== self);
  const resolveEach = (arg: string, how: 'read' | 'entry' | 'into', judge: (p: ResolvedPath) => string | undefined): string | undefined => {
    if (!input.resolve) return `${arg}: paths cannot be checked here`;
    if (folders.unseen !== undefined && !path.isAbsolute(arg)) return `${arg}, taken from a folder the line changes to with \`${folders.unseen}\`, which Peon cannot see`;
    for (const cwd of cwds) {
      let p: ResolvedPath;
      try {
        const named = path.resolve(cwd, arg);
        if (how === 'into' && (DEVICES.has(named) || /^\/dev\/fd\/\d+$/.test(named))) continue;
        const at = physicalPath(cwd, arg);
        if (how !== 'read') {
          const stat = fs.lstatSync(at, { throwIfNoEntry: false });
          if (!stat && othersCreate) return `${arg}, which does not exist yet: another command of the line may create it as a link to anywhere`;
          if (how === 'into' && stat?.isFile() && stat.nlink > 1) return `${arg}, which has ${stat.nlink} hard links, and another may be outside the workspace`;
        }
        p = how === 'entry' && !arg.endsWith('/') && input.resolveLink ? input.resolveLink(at) : input.resolve(at);
      } catch (error) {
        if (error instanceof ProcessRelativePath) return `${arg}, which leads through ${error.message}: what that means depends on the process that opens it`;
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
        if (p.hardLinks > 1) return `${arg} has ${p.hardLinks} hard links, and another may be outside the workspace`;
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
