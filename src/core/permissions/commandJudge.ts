// What Peon knows about one simple command without running it (DESIGN.md §5):
// whether it is a bare, read-only command `semi-judge` may run directly, whether it is
// destructive (always asks, whatever the rules say), and the forms a deny rule is
// matched against, so `/usr/bin/curl`, `command curl` or `git -C . push` cannot dodge it.
import os from 'node:os';
import path from 'node:path';

/** A path argument as the workspace sees it: why it may not be read, or undefined. */
export type PathCheck = (candidate: string) => string | undefined;

/** Commands whose every option only changes what they print (paths still checked). */
const ANY_ARGS = new Set(['pwd', 'ls', 'echo', 'true', 'false', 'whoami', 'uname', 'which', 'wc', 'head', 'tail', 'cat', 'stat', 'du', 'basename', 'dirname', 'realpath', 'nproc', 'id', 'type', 'diff', 'cmp', 'cut', 'tr', 'seq', 'sleep']);
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
/** Options that make an otherwise read-only command write, run a program, read file names from elsewhere or never end. */
const UNSAFE_OPTION: Readonly<Record<string, RegExp>> = {
  '*': /^--files0-from/,
  tail: /^(-[^-]*[fF]|--follow|--retry|--pid)/,
  git: /^(--output|--ext-diff|--textconv|--exec|--upload-pack|--receive-pack|-O|--open-files-in-pager|--no-index)/,
  diff: /^(--to-file|--from-file)/,
};

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
  const option = args.find((a) => UNSAFE_OPTION['*']!.test(a) || UNSAFE_OPTION[name]?.test(a));
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
  const objection = pathObjection(args, check, true);
  return objection === undefined ? { why, judgeable: true } : { why: `${why}; ${objection}`, judgeable: false };
}

/** Commands that run the rest of their words as a command: which words are their options, and which options take a value. */
const WRAPPERS: Readonly<Record<string, { readonly option?: RegExp; readonly takesValue?: ReadonlySet<string> }>> = {
  command: { option: /^-[pvV]+$/ },
  builtin: {},
  exec: { option: /^-[cl]+$|^-a$/, takesValue: new Set(['-a']) },
  nohup: {},
  sudo: { option: /^-/, takesValue: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T']) },
  doas: { option: /^-/, takesValue: new Set(['-u', '-C']) },
  time: { option: /^-/, takesValue: new Set(['-f', '-o']) },
  nice: { option: /^-n$|^-\d+$|^--adjustment/, takesValue: new Set(['-n']) },
  ionice: { option: /^-/, takesValue: new Set(['-c', '-n', '-p']) },
  setsid: { option: /^-/ },
  env: { option: /^-|=/, takesValue: new Set(['-u', '-C', '-S']) },
  timeout: { option: /^-|^\d+(\.\d+)?[smhd]?$/, takesValue: new Set(['-s', '-k']) },
  xargs: { option: /^-/, takesValue: new Set(['-I', '-L', '-n', '-P', '-s', '-E', '-d', '-a']) },
  stdbuf: { option: /^-/ },
};

/** `argv` without wrappers (`sudo -u x`, `command`, `env X=1`, `timeout 5`, …) and with the command's base name. */
export function unwrap(argv: readonly string[]): string[] {
  let rest = [...argv];
  for (let guard = 0; guard < 10 && rest.length > 0; guard++) {
    const base = path.basename(rest[0]!);
    const wrapper = WRAPPERS[base];
    if (!wrapper) return [base, ...rest.slice(1)];
    let i = 1;
    while (i < rest.length && wrapper.option?.test(rest[i]!)) i += wrapper.takesValue?.has(rest[i]!) ? 2 : 1;
    rest = rest.slice(i);
  }
  return rest.length > 0 ? [path.basename(rest[0]!), ...rest.slice(1)] : [];
}

/** git's own options before the subcommand (`git -C dir`, `git -c k=v`, `--git-dir=…`). */
function gitSubcommand(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += args[i] === '-C' || args[i] === '-c' ? 2 : 1;
  return args.slice(i);
}

/**
 * The forms deny rules are matched against: as written, unwrapped with the base name,
 * without git's global options, and without its options, each with or without the
 * word after it (`npm --access public publish` is also `npm publish`).
 */
export function commandForms(argv: readonly string[]): string[] {
  const plain = unwrap(argv);
  const forms = [argv.join(' '), plain.join(' ')];
  if (plain[0] === 'git') forms.push(['git', ...gitSubcommand(plain.slice(1))].join(' '));
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

/** Command names whose effect cannot be judged when their words are not literal. */
export const DESTRUCTIVE_NAMES = new Set(['rm', 'rmdir', 'git', 'dd', 'shred', 'mkfs', 'wipefs', 'chmod', 'chown', 'find', 'truncate', 'shutdown', 'reboot', 'halt', 'poweroff']);

const RECURSIVE_OR_FORCE = /^-[a-zA-Z]*[rRf]|^--(recursive|force)$/;

/**
 * Why `argv` is destructive (always asks), or undefined. `roots`: the workspace folders;
 * `cwds`: every folder the line may be in when it runs (it may `cd`).
 */
export function whyDestructive(argv: readonly string[], roots: readonly string[], cwds: readonly string[]): string | undefined {
  const plain = unwrap(argv);
  const [name = '', ...args] = plain;
  const shown = argv.join(' ');
  const home = os.homedir();
  const wide = (arg: string): boolean =>
    cwds.some((cwd) => {
      const starred = arg === '*' || arg.endsWith('/*') || arg === '.*' || arg.endsWith('/.*');
      const target = path.resolve(cwd, starred ? arg.replace(/\/?\.?\*$/, '') || '.' : arg);
      if (target === '/' || target === home || path.basename(target) === '.git') return true;
      // A workspace folder, anything above one, or (with a star) everything in one.
      return roots.some((root) => root === target || root.startsWith(target.endsWith(path.sep) ? target : target + path.sep));
    });
  const operands = args.filter((a) => !a.startsWith('-'));
  switch (name) {
    case 'rm':
    case 'rmdir':
      return args.some((a) => RECURSIVE_OR_FORCE.test(a)) && operands.some(wide) ? `${shown} deletes the workspace, its .git, the home folder or the whole disk` : undefined;
    case 'git': {
      const [sub = '', ...rest] = gitSubcommand(args);
      const short = (letter: string): boolean => rest.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(letter));
      if (sub === 'push' && (short('f') || short('d') || rest.some((a) => a.startsWith('--force') || a.startsWith('+') || a.startsWith(':') || a === '--mirror' || a === '--delete' || a === '--prune')))
        return `${shown} rewrites or deletes remote history`;
      if (sub === 'clean' && (short('f') || rest.includes('--force'))) return `${shown} deletes untracked files for good`;
      if (sub === 'reset' && rest.includes('--hard')) return `${shown} discards uncommitted work`;
      if (sub === 'checkout' && (short('f') || rest.includes('--force') || rest.includes('--') || rest.includes('.'))) return `${shown} discards uncommitted changes`;
      if (sub === 'restore' && !(rest.includes('--staged') && !rest.includes('--worktree') && !short('W'))) return `${shown} discards uncommitted changes`;
      if (sub === 'branch' && (short('D') || (rest.some((a) => a === '--delete' || a === '-d') && rest.some((a) => a === '--force' || a === '-f')))) return `${shown} deletes a branch whether or not it was merged`;
      if (sub === 'stash' && (rest[0] === 'drop' || rest[0] === 'clear')) return `${shown} deletes stashed work`;
      if ((sub === 'reflog' && rest[0] === 'expire') || (sub === 'update-ref' && rest.includes('-d')) || sub === 'filter-branch' || (sub === 'gc' && rest.some((a) => a.startsWith('--prune'))))
        return `${shown} deletes history that could otherwise be recovered`;
      return undefined;
    }
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
      return args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive') && operands.slice(1).some(wide) ? `${shown} changes ownership or modes across the workspace, home or disk` : undefined;
    case 'find':
      return args.includes('-delete') || args.some((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') ? `${shown} deletes or runs commands on every match` : undefined;
    default:
      return name.startsWith('mkfs.') ? `${name} formats a file system` : undefined;
  }
}
