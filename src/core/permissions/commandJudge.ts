// What Peon knows about one simple command without running it (DESIGN.md §5):
// whether it is a bare, read-only command `semi-judge` may run directly, whether it is
// destructive (always asks, whatever the rules say), and the forms a deny rule is
// matched against, so `/usr/bin/curl`, `command curl` or `git -C . push` cannot dodge it.
import os from 'node:os';
import path from 'node:path';
import { SHELLS, unwrap } from '../shell/commandWords';

/** A path argument as the workspace sees it: why it may not be read, or undefined. */
export type PathCheck = (candidate: string) => string | undefined;

/** Commands whose every option only changes what they print (paths still checked). */
const ANY_ARGS = new Set(['pwd', 'ls', 'echo', 'true', 'false', 'whoami', 'uname', 'which', 'wc', 'head', 'tail', 'cat', 'stat', 'du', 'basename', 'dirname', 'realpath', 'nproc', 'id', 'type', 'cmp', 'cut', 'tr', 'seq']);
/** Exactly these arguments print a version; anything else may run code (`python3 -v`, `make version`). */
const VERSION: Readonly<Record<string, readonly string[]>> = {
  node: ['--version', '-v'],
  npm: ['--version', '-v'],
  pnpm: ['--version', '-v'],
  yarn: ['--version', '-v'],
  python: ['--version', '-V'],
  python3: ['--version', '-V'],
  pip: ['--version', '-V'],
  go: ['version'],
  cargo: ['--version', '-V'],
  rustc: ['--version', '-V'],
  tsc: ['--version', '-v'],
  deno: ['--version', '-V'],
  git: ['--version', 'version'],
};
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame', 'describe', 'shortlog']);
const GIT_BRANCH_FLAGS = new Set(['-a', '-r', '-v', '-vv', '--list', '--all', '--show-current', '--remotes']);
/** Long options (any unambiguous prefix of them) that make an otherwise read-only command write, run a program, read names from elsewhere or never end. */
const UNSAFE_LONG: Readonly<Record<string, readonly string[]>> = {
  '*': ['files0-from'],
  tail: ['follow', 'retry', 'pid'],
  git: ['output', 'ext-diff', 'textconv', 'exec', 'upload-pack', 'receive-pack', 'open-files-in-pager', 'no-index'],
};
const UNSAFE_SHORT: Readonly<Record<string, RegExp>> = { tail: /^-[^-]*[fF]/, git: /^-O/ };

const unsafeOption = (name: string, arg: string): boolean =>
  [...(UNSAFE_LONG['*'] ?? []), ...(UNSAFE_LONG[name] ?? [])].some((long) => isLong(arg, long, 2)) || (UNSAFE_SHORT[name]?.test(arg) ?? false);

/**
 * Why `argv` is not a bare read-only command semi-judge runs directly, or undefined
 * when it is. Every argument that could name a file passes `check`. `judgeable`: the
 * only objection is that the command is not on the list (a judge model may weigh it);
 * a path objection (secret-like, outside, protected) is never the judge's to lift.
 */
export function whyNotWhitelisted(argv: readonly string[], check: PathCheck): { why: string; judgeable: boolean } | undefined {
  const [name = '', ...args] = argv;
  let ok = false;
  if (ANY_ARGS.has(name)) ok = true;
  else if (name === 'date') ok = args.every((a) => a.startsWith('+'));
  else if (name === 'cd') ok = args.length === 1 && !args[0]!.startsWith('-'); // `cd`, `cd -`: home, or wherever OLDPWD says
  else if (VERSION[name] && args.length === 1 && VERSION[name].includes(args[0]!)) ok = true;
  else if (name === 'git') {
    const [sub = '', ...rest] = args;
    if (GIT_READ.has(sub)) ok = true;
    else if (sub === 'branch') ok = rest.every((a) => GIT_BRANCH_FLAGS.has(a));
    else if (sub === 'remote') ok = rest.length === 0 || (rest.length === 1 && rest[0] === '-v');
  }
  if (!ok) return notListed(`${name || 'it'} is not one of the read-only commands Peon runs without asking`, args, check);
  const option = args.find((a) => unsafeOption(name, a));
  if (option) return notListed(`${option} can make ${name} write, run something, read names from elsewhere or never end`, args, check);
  // git expands pathspecs itself: `git log -p -- '.en?'` reaches files no word names.
  if (name === 'git') {
    const spec = args.find((a) => /[*?[]/.test(a) || a.startsWith(':('));
    if (spec) return { why: `git expands the pathspec ${spec} itself, so what it reads cannot be checked`, judgeable: false };
  }
  const why = pathObjection(args, check, false);
  return why === undefined ? undefined : { why, judgeable: false };
}

/** The first path argument `check` objects to; `skipUrls`: a URL is not a path (for commands that take them). */
function pathObjection(args: readonly string[], check: PathCheck, skipUrls: boolean): string | undefined {
  for (const arg of args) {
    if (skipUrls && /^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) continue;
    // `git show HEAD:.env`, `--file=secrets.json`, `-S/etc/passwd`: each piece may be a path.
    const pieces = arg.startsWith('--') ? arg.split('=').slice(1) : /^-[a-zA-Z]./.test(arg) ? [arg.slice(2), ...arg.split('=').slice(1)] : arg.split(':');
    for (const piece of pieces) {
      if (piece === '') continue;
      const why = check(piece);
      if (why) return why;
    }
  }
  return undefined;
}

/** A command off the list: judgeable unless one of its paths is objectionable too. */
function notListed(why: string, args: readonly string[], check: PathCheck): { why: string; judgeable: boolean } {
  const objection = pathObjection(args, check, true);
  return objection === undefined ? { why, judgeable: true } : { why: `${why}; ${objection}`, judgeable: false };
}

/** `--rec`, `--recursive=…`: GNU and git take any unambiguous prefix of a long option. */
export function isLong(arg: string, name: string, min = 1): boolean {
  if (!arg.startsWith('--')) return false;
  const given = arg.slice(2).split('=')[0]!;
  return given.length >= min && name.startsWith(given);
}

/** A cluster of short options (`-rf`, `-uf`) holding `letter`. */
const hasShort = (args: readonly string[], letter: string): boolean => args.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(letter));

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** git's own options before the subcommand (`git -C dir`, `git -c k=v`, `--git-dir DIR`), and the rest. */
function gitSplit(args: readonly string[]): { global: string[]; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUE_OPTIONS.has(args[i]!) ? 2 : 1;
  return { global: args.slice(0, i), rest: args.slice(i) };
}

/**
 * The forms deny rules are matched against: as written, unwrapped with the base name,
 * without git's global options, and without its options, each with or without the
 * word after it (`npm --access public publish` is also `npm publish`).
 */
export function commandForms(argv: readonly string[]): string[] {
  const plain = unwrap(argv) ?? [path.basename(argv[0] ?? ''), ...argv.slice(1)];
  const forms = [argv.join(' '), plain.join(' ')];
  if (plain[0] === 'git') forms.push(['git', ...gitSplit(plain.slice(1)).rest].join(' '));
  // Without its options, each taken alone or with the word after it (`--access public`).
  const options = plain.map((w, i) => (i > 0 && w.startsWith('-') ? i : -1)).filter((i) => i > 0).slice(0, 6);
  for (let mask = 0; mask < 1 << options.length; mask++) {
    const drop = new Set<number>();
    options.forEach((at, bit) => {
      drop.add(at);
      if (mask & (1 << bit)) drop.add(at + 1);
    });
    forms.push(plain.filter((_, i) => !drop.has(i)).join(' '));
  }
  return [...new Set(forms)];
}

/** Command names whose effect cannot be judged when their words are not literal (wrappers and shells: RUNS_OTHERS). */
export const DESTRUCTIVE_NAMES = new Set(['rm', 'rmdir', 'git', 'dd', 'shred', 'mkfs', 'wipefs', 'chmod', 'chown', 'find', 'truncate', 'shutdown', 'reboot', 'halt', 'poweroff']);

const GLOB = /[*?[]/;

function whyGitDestructive(args: readonly string[], shown: string): string | undefined {
  const { global, rest: [sub = '', ...rest] } = gitSplit(args);
  if (global.some((a) => a === '-c' || a.startsWith('--config-env') || a.startsWith('--exec-path'))) return `${shown} sets git configuration for the command, which can make it run anything`;
  const long = (name: string, min = 2): boolean => rest.some((a) => isLong(a, name, min));
  const operands = rest.filter((a) => !a.startsWith('-'));
  switch (sub) {
    case 'push':
      return hasShort(rest, 'f') || hasShort(rest, 'd') || long('force') || long('force-with-lease') || long('mirror') || long('delete') || long('prune') || rest.some((a) => a.startsWith('+') || a.startsWith(':') || a.includes(':+') || /^[^-].*:$/.test(a))
        ? `${shown} rewrites or deletes remote history`
        : undefined;
    case 'clean':
      return hasShort(rest, 'f') || long('force') ? `${shown} deletes untracked files for good` : undefined;
    case 'reset':
      return long('hard') || long('merge') || long('keep') ? `${shown} discards uncommitted work` : undefined;
    case 'checkout':
      return hasShort(rest, 'f') || long('force') || rest.includes('--') || rest.includes('.') || operands.length >= 2 ? `${shown} discards uncommitted changes` : undefined;
    case 'switch':
      return hasShort(rest, 'f') || long('force') || long('discard-changes') ? `${shown} discards uncommitted changes` : undefined;
    case 'restore':
      return long('staged') && !long('worktree') && !hasShort(rest, 'W') ? undefined : `${shown} discards uncommitted changes`;
    case 'rm':
      return hasShort(rest, 'r') || hasShort(rest, 'f') || long('force') ? `${shown} deletes files from the work tree` : undefined;
    case 'branch':
      return hasShort(rest, 'D') || ((long('delete') || hasShort(rest, 'd')) && (long('force') || hasShort(rest, 'f'))) ? `${shown} deletes a branch whether or not it was merged` : undefined;
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear' ? `${shown} deletes stashed work` : undefined;
    case 'worktree':
      return rest[0] === 'remove' && (hasShort(rest, 'f') || long('force')) ? `${shown} deletes a work tree with its changes` : undefined;
    case 'reflog':
    case 'update-ref':
    case 'prune':
    case 'filter-branch':
    case 'filter-repo':
    case 'gc':
      return (sub === 'reflog' && (rest[0] === 'expire' || rest[0] === 'delete')) || (sub === 'update-ref' && (hasShort(rest, 'd') || long('delete'))) || sub === 'prune' || sub.startsWith('filter-') || (sub === 'gc' && long('prune'))
        ? `${shown} deletes history that could otherwise be recovered`
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Why `argv` is destructive (always asks), or undefined. `roots`: the workspace folders;
 * `cwds`: every folder the line may be in when it runs (it may \`cd\`).
 */
export function whyDestructive(argv: readonly string[], roots: readonly string[], cwds: readonly string[]): string | undefined {
  const shown = argv.join(' ');
  const plain = unwrap(argv);
  if (!plain) return `${shown}: ${path.basename(argv[0] ?? '')} has an option Peon does not know, so what it runs cannot be seen`;
  const [name = '', ...args] = plain;
  const home = os.homedir();
  const wide = (arg: string): boolean =>
    GLOB.test(arg) ||
    cwds.some((cwd) => {
      const target = path.resolve(cwd, arg);
      if (target === '/' || target === home || target.split(path.sep).includes('.git')) return true;
      // A workspace folder or anything above one.
      return roots.some((root) => root === target || root.startsWith(target.endsWith(path.sep) ? target : target + path.sep));
    });
  const options = args.filter((a) => a.startsWith('-'));
  const operands = args.filter((a) => !a.startsWith('-'));
  const recursive = hasShort(options, 'r') || hasShort(options, 'R') || options.some((a) => isLong(a, 'recursive'));
  const force = hasShort(options, 'f') || options.some((a) => isLong(a, 'force'));
  switch (name) {
    case 'rm':
    case 'rmdir':
      // No operand: the names come from elsewhere (`xargs rm -rf`).
      return (recursive || force) && (operands.length === 0 || operands.some(wide)) ? `${shown} deletes the workspace, its .git, the home folder, the whole disk or names it cannot see` : undefined;
    case 'git':
      return whyGitDestructive(args, shown);
    case 'dd':
      return args.some((a) => a.startsWith('of=')) ? `${shown} overwrites whatever of= names, block by block` : undefined;
    case 'truncate':
      return `${shown} cuts files short`;
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
      return recursive && operands.slice(1).some(wide) ? `${shown} changes ownership or modes across the workspace, home or disk` : undefined;
    case 'find':
      return args.includes('-delete') || args.some((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') ? `${shown} deletes or runs commands on every match` : undefined;
    default:
      if (name.startsWith('mkfs.')) return `${name} formats a file system`;
      // A shell reading its script from its input (\`… | bash\`, \`bash <<< …\`): nothing to see.
      if (SHELLS.has(name) && !args.some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) && operands.length === 0) return `${shown} runs a script from its input, which cannot be seen`;
      return undefined;
  }
}
