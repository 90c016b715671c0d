// What Peon knows about one simple command without running it (DESIGN.md §5):
// whether it is a bare, read-only command `semi-judge` may run directly, and whether it
// is destructive, which always asks whatever the rules say.
import path from 'node:path';
import os from 'node:os';

/** A path argument as the workspace sees it: inside? secret-like? protected? */
export type PathCheck = (candidate: string) => string | undefined;

const ANY_ARGS = new Set(['pwd', 'ls', 'echo', 'true', 'false', 'whoami', 'uname', 'which', 'wc', 'head', 'tail', 'cat', 'file', 'stat', 'du', 'basename', 'dirname', 'realpath', 'cd', 'tree', 'nproc', 'id', 'type', 'diff', 'cmp', 'sort', 'cut', 'tr', 'seq', 'sleep']);
const VERSION_ONLY = new Set(['node', 'npm', 'npx', 'pnpm', 'yarn', 'python', 'python3', 'pip', 'go', 'cargo', 'rustc', 'java', 'javac', 'tsc', 'deno', 'bun', 'ruby', 'gcc', 'clang', 'make', 'cmake', 'git']);
const VERSION_FLAGS = new Set(['--version', '-v', '-V', 'version']);
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame', 'describe', 'shortlog']);
const GIT_BRANCH_FLAGS = new Set(['-a', '-r', '-v', '-vv', '--list', '--all', '--show-current', '--remotes']);
/** Flags that make a read-only command write a file, run a program, or follow forever. */
const UNSAFE_FLAG = /^(--output|--ext-diff|--exec|--upload-pack|--receive-pack|-f$|-F$|--follow|--pre\b|-o$)/;
/** Where those letters mean something harmless. */
const UNSAFE_FLAG_EXEMPT = new Set(['ls', 'head', 'cat', 'wc']);

/**
 * Why `argv` is not a bare read-only command semi-judge runs directly, or undefined
 * when it is. Every argument that could name a file passes `check`. `judgeable`: the
 * only objection is that the command is not on the list (a judge model may weigh it);
 * a path objection (secret-like, outside, protected) is never the judge's to lift.
 */
export function whyNotWhitelisted(argv: readonly string[], check: PathCheck): { why: string; judgeable: boolean } | undefined {
  const [name = '', ...args] = argv;
  const base = name;
  let ok = false;
  if (ANY_ARGS.has(base)) ok = true;
  else if (base === 'date') ok = args.every((a) => a.startsWith('+'));
  else if (VERSION_ONLY.has(base) && args.length === 1 && VERSION_FLAGS.has(args[0]!)) ok = true;
  else if (base === 'git') {
    const [sub = '', ...rest] = args;
    if (GIT_READ.has(sub)) ok = true;
    else if (sub === 'branch') ok = rest.every((a) => GIT_BRANCH_FLAGS.has(a));
    else if (sub === 'remote') ok = rest.length === 0 || (rest.length === 1 && rest[0] === '-v');
  }
  if (!ok) return notListed(`${name || 'it'} is not one of the read-only commands Peon runs without asking`, args, check);
  const flag = args.find((a) => UNSAFE_FLAG.test(a));
  if (flag && !UNSAFE_FLAG_EXEMPT.has(base)) return notListed(`${flag} can make ${name} write, run something or never end`, args, check);
  const why = pathObjection(args, check);
  return why === undefined ? undefined : { why, judgeable: false };
}

/** The first path argument `check` objects to. */
function pathObjection(args: readonly string[], check: PathCheck): string | undefined {
  for (const arg of args) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) continue; // a URL, not a path
    // `git show HEAD:.env`, `--file=secrets.json`: each piece may be a path.
    for (const piece of arg.startsWith('-') ? arg.split('=').slice(1) : arg.split(':')) {
      if (piece === '') continue;
      const why = check(piece);
      if (why) return why;
    }
  }
  return undefined;
}

/** A command off the list: judgeable unless one of its paths is objectionable too. */
function notListed(why: string, args: readonly string[], check: PathCheck): { why: string; judgeable: boolean } {
  const path = pathObjection(args, check);
  return path === undefined ? { why, judgeable: true } : { why: `${why}; ${path}`, judgeable: false };
}

const RECURSIVE_OR_FORCE = /^-[a-zA-Z]*[rRf]|^--(recursive|force)$/;

/** Why `argv` is destructive (always asks), or undefined. `roots`: the workspace folders. */
export function whyDestructive(argv: readonly string[], roots: readonly string[], cwd: string): string | undefined {
  const [name = '', ...args] = argv;
  const home = os.homedir();
  const wide = (arg: string): boolean => {
    if (arg === '*' || arg === '/*' || arg === '.*') return true;
    const target = path.resolve(cwd, arg);
    // The root, home, a workspace folder or anything above one of them.
    return target === '/' || target === home || roots.some((root) => root === target || root.startsWith(target.endsWith(path.sep) ? target : target + path.sep));
  };
  switch (name) {
    case 'rm':
    case 'rmdir':
      if (args.some((a) => RECURSIVE_OR_FORCE.test(a)) && args.filter((a) => !a.startsWith('-')).some(wide)) return `${argv.join(' ')} deletes the workspace, the home folder or the whole disk`;
      return undefined;
    case 'git': {
      const [sub = '', ...rest] = args;
      if (sub === 'push' && rest.some((a) => a === '-f' || a.startsWith('--force') || a.startsWith('+') || a === '--mirror' || a === '--delete' || a === '-d')) return `${argv.join(' ')} rewrites or deletes remote history`;
      if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--force')) return `${argv.join(' ')} deletes untracked files for good`;
      if (sub === 'reset' && rest.includes('--hard')) return `${argv.join(' ')} discards uncommitted work`;
      if ((sub === 'checkout' || sub === 'restore') && rest.some((a) => a === '.' || a === ':/')) return `${argv.join(' ')} discards uncommitted changes`;
      if (sub === 'branch' && rest.some((a) => a === '-D' || (a.startsWith('-') && !a.startsWith('--') && a.includes('D')))) return `${argv.join(' ')} deletes a branch whether or not it was merged`;
      if (sub === 'stash' && (rest[0] === 'drop' || rest[0] === 'clear')) return `${argv.join(' ')} deletes stashed work`;
      return undefined;
    }
    case 'dd':
      return args.some((a) => a.startsWith('of=')) ? `${argv.join(' ')} overwrites whatever of= names, block by block` : undefined;
    case 'shred':
    case 'mkfs':
    case 'wipefs':
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
      return `${name} destroys data or stops the machine`;
    case 'chmod':
    case 'chown':
      return args.some((a) => RECURSIVE_OR_FORCE.test(a) && a.includes('R')) && args.filter((a) => !a.startsWith('-')).slice(1).some(wide) ? `${argv.join(' ')} changes ownership or modes across the workspace, home or disk` : undefined;
    case 'find':
      return args.includes('-delete') || args.some((a) => a === '-exec' || a === '-execdir') ? `${argv.join(' ')} deletes or runs commands on every match` : undefined;
    default:
      return name.startsWith('mkfs.') ? `${name} formats a file system` : undefined;
  }
}
