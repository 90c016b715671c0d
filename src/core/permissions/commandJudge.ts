// What Peon knows about one simple command without running it (DESIGN.md §5):
// whether it is a bare, read-only command `semi-judge` may run directly, and the forms a
// deny rule is matched against, so `/usr/bin/curl`, `command curl` or `git -C . push`
// cannot dodge it. Whether it is destructive is destructive.ts.
import path from 'node:path';
import { unwrap } from '../shell/commandWords';
import { gitSplit, isLong } from './commandOptions';

/** A path argument as the workspace sees it: why it may not be read, or undefined. */
export type PathCheck = (candidate: string) => string | undefined;

/** Commands whose every option only changes what they print (paths still checked). */
const ANY_ARGS = new Set(['pwd', 'ls', 'echo', 'true', 'false', 'whoami', 'uname', 'which', 'wc', 'head', 'tail', 'cat', 'stat', 'du', 'basename', 'dirname', 'realpath', 'nproc', 'id', 'type', 'cmp', 'cut', 'tr', 'seq']);
/**
 * Exactly these arguments print a version; anything else may run code (`python3 -v`,
 * `make version`). Tools that a version manager dispatches by a file in the project
 * (rustup's `rust-toolchain.toml`, corepack's `packageManager`, yarn's `yarnPath`, go's
 * `toolchain` line) are not here: their "version" can be any program the project names.
 * Version managers that dispatch every tool (asdf, mise) are caught by their files: see
 * TOOLCHAIN_FILES.
 */
const VERSION: Readonly<Record<string, readonly string[]>> = {
  node: ['--version', '-v'],
  npm: ['--version', '-v'],
  python: ['--version', '-V'],
  python3: ['--version', '-V'],
  pip: ['--version', '-V'],
  tsc: ['--version', '-v'],
  deno: ['--version', '-V'],
  git: ['--version', 'version'],
};

/** Files by which asdf, mise, rtx or pyenv pick the program a shim runs, from the folder a command runs in upwards. */
export const TOOLCHAIN_FILES = ['.tool-versions', '.mise.toml', 'mise.toml', '.mise.local.toml', 'mise.local.toml', '.rtx.toml', '.python-version', '.mise', '.config/mise.toml', '.config/mise/config.toml'];

/** Whether `argv` is a version query (`node --version`), whose program a version manager may pick. */
export const isVersionQuery = (argv: readonly string[]): boolean => argv.length === 2 && (VERSION[argv[0]!]?.includes(argv[1]!) ?? false) && argv[0] !== 'git';
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame', 'describe', 'shortlog']);
const GIT_BRANCH_FLAGS = new Set(['-a', '-r', '-v', '-vv', '--list', '--all', '--show-current', '--remotes']);
/** Long options (any unambiguous prefix of them) that make an otherwise read-only command write, run a program, read names from elsewhere or never end. */
const UNSAFE_LONG: Readonly<Record<string, readonly string[]>> = {
  '*': ['files0-from'],
  tail: ['follow', 'retry', 'pid'],
  ls: ['recursive', 'dereference', 'dereference-command-line'],
  du: ['all', 'dereference', 'dereference-args'],
  git: ['output', 'ext-diff', 'textconv', 'exec', 'upload-pack', 'receive-pack', 'open-files-in-pager', 'no-index', 'show-signature'],
};
/**
 * Short options likewise. `ls -R` and `du -a` walk into folders a read would ask about
 * (secret-like, ignored), and `-L` follows links out of the workspace.
 */
const UNSAFE_SHORT: Readonly<Record<string, RegExp>> = { tail: /^-[^-]*[fF]/, git: /^-O/, ls: /^-[^-]*[RL]/, du: /^-[^-]*[aLD]/ };

// GNU getopt takes any unique prefix of a long option, one letter included: `--f` is `--files0-from` for wc.
const unsafeOption = (name: string, arg: string): boolean =>
  [...(UNSAFE_LONG['*'] ?? []), ...(UNSAFE_LONG[name] ?? [])].some((long) => isLong(arg, long, 1)) || (UNSAFE_SHORT[name]?.test(arg) ?? false);

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
    // A %G placeholder verifies the signature: it runs gpg (or ssh-keygen), which writes its home.
    const signed = args.find((a) => /^--(format|pretty)=/.test(a) && a.includes('%G'));
    if (signed) return { why: `${signed} makes git verify signatures, which runs gpg`, judgeable: false };
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
    // The whole word may be a path (a file named `--key` or `docs:env`), and so may each
    // piece of it: `git show HEAD:.env`, `--file=secrets.json`, `-S/etc/passwd`.
    // `@file` is a file to read for curl, gcc, npm and others.
    const pieces = new Set([arg, ...arg.split(':'), ...arg.split('=').slice(1), ...(/^-[^-]./.test(arg) ? [arg.slice(2)] : []), ...arg.split('=').map((p) => (p.startsWith('@') ? p.slice(1) : '')) ]);
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
