// Destructive commands (DESIGN.md §5): they always ask, in every mode and under every
// rule. A command is destructive when it deletes, moves or overwrites something outside
// the workspace, a workspace folder itself, `.git` or a protected path, or names its
// targets in a way that cannot be seen (a glob, no operand at all); and some commands
// are destructive whatever they name (`git push --force`, `shred`, `dd of=`).
// Which words of a command are its targets is known here; where a target leads is the
// caller's `ChangeCheck`, which resolves it the way the kernel will.
import path from 'node:path';
import { SHELLS, unwrap } from '../shell/commandWords';

/**
 * Why changing `target` must ask, or undefined. `entry`: the name itself goes or is
 * replaced (rm, mv's sources, a recursive chmod), so a workspace folder counts too;
 * `into`: something is written at or below it (cp's destination, tee, a redirection).
 */
export type ChangeCheck = (target: string, how: 'entry' | 'into') => string | undefined;

/** Command names whose effect cannot be judged when their words are not literal (wrappers and shells: RUNS_OTHERS). */
export const DESTRUCTIVE_NAMES = new Set([
  'rm', 'rmdir', 'unlink', 'mv', 'cp', 'install', 'ln', 'tee', 'sed', 'perl', 'rsync', 'tar', 'bsdtar', 'cpio', 'unzip', 'git', 'dd', 'shred', 'mkfs', 'wipefs',
  'chmod', 'chown', 'chgrp', 'find', 'truncate', 'sort', 'uniq', 'curl', 'wget', 'crontab', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'lzma',
  'shutdown', 'reboot', 'halt', 'poweroff', 'patch', 'link', 'rename', 'zip', '7z', 'ed', 'ex', 'vi', 'vim', 'nvim', 'emacs', 'nano', 'split', 'csplit', 'awk', 'gawk', 'mawk', 'nawk', 'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'php', 'lua', 'Rscript',
]);

/** rsync's long options whose value may be the next word. */
const RSYNC_VALUES = ['rsh', 'exclude', 'include', 'filter', 'files-from', 'exclude-from', 'include-from', 'log-file', 'log-file-format', 'password-file', 'partial-dir', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'timeout', 'contimeout', 'port', 'bwlimit', 'max-size', 'min-size', 'block-size', 'modify-window', 'out-format', 'iconv', 'checksum-choice', 'compress-choice', 'compress-level', 'skip-compress', 'info', 'debug', 'max-delete', 'sockopts', 'outbuf', 'remote-option', 'protocol', 'address', 'stop-at', 'time-limit', 'write-batch', 'read-batch', 'only-write-batch', 'rsync-path'];

/** Interpreters and the options that hand them a program on the command line. */
const INLINE_CODE: Readonly<Record<string, RegExp>> = {
  python: /^-[a-zA-Z]*c/,
  node: /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/,
  deno: /^eval$/,
  bun: /^(-e|--eval|-p|--print)(=|$)/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e/,
  php: /^-[a-zA-Z]*r/,
  lua: /^-[a-zA-Z]*e/,
  Rscript: /^-e$/,
};

/**
 * Whether a sed script can write a file or run a command: a `w`, `W` or `e` command, or
 * an `s` command with the `w` or `e` flag. Read the way sed reads it, command by
 * command; anything the reading does not understand counts as yes.
 */
export function sedScriptWrites(script: string): boolean {
  let i = 0;
  const skipBlanks = (): void => {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
  };
  const delimited = (delimiter: string): boolean => {
    for (; i < script.length; i++) {
      if (script[i] === '\\') i++;
      else if (script[i] === delimiter) {
        i++;
        return true;
      } else if (script[i] === '\n') return false;
    }
    return false;
  };
  while (true) {
    skipBlanks();
    if (i >= script.length) return false;
    // Addresses: numbers, $, /re/, \cREc, steps and ranges, negation.
    while (i < script.length) {
      const c = script[i]!;
      if (/[\d$,~!+ ]/.test(c)) i++;
      else if (c === '/') {
        i++;
        if (!delimited('/')) return true;
        while (/[IM]/.test(script[i] ?? '')) i++;
      } else if (c === '\\') {
        const d = script[i + 1];
        i += 2;
        if (d === undefined || !delimited(d)) return true;
      } else break;
    }
    const command = script[i++];
    if (command === undefined) return false;
    if ('wWe'.includes(command)) return true;
    if (command === 's' || command === 'y') {
      const d = script[i++];
      if (d === undefined || d === '\\' || d === '\n') return true;
      if (!delimited(d) || !delimited(d)) return true;
      const flags = /^[^;\n}]*/.exec(script.slice(i))![0];
      if (command === 's' && /[we]/.test(flags)) return true;
      i += flags.length;
    } else if ('aic'.includes(command)) {
      while (i < script.length && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
    } else if (':btTrRvlqQ'.includes(command)) {
      while (i < script.length && !/[;\n]/.test(script[i]!)) i++;
    } else if (!'{}=dDgGhHnNpPxzF#'.includes(command)) return true;
    if (command === '#') while (i < script.length && script[i] !== '\n') i++;
  }
}

const GLOB = /[*?[]/;

/** `--rec`, `--recursive=…`: GNU and git take any unambiguous prefix of a long option. */
export function isLong(arg: string, name: string, min = 1): boolean {
  if (!arg.startsWith('--')) return false;
  const given = arg.slice(2).split('=')[0]!;
  return given.length >= min && name.startsWith(given);
}

/** A cluster of short options (`-rf`, `-uf`) holding `letter`. */
export const hasShort = (args: readonly string[], letter: string): boolean => args.some((a) => /^-[a-zA-Z]+$/.test(a) && a.includes(letter));

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** git's own options before the subcommand (`git -C dir`, `git -c k=v`, `--git-dir DIR`), and the rest. */
export function gitSplit(args: readonly string[]): { global: string[]; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUE_OPTIONS.has(args[i]!) ? 2 : 1;
  return { global: args.slice(0, i), rest: args.slice(i) };
}

/**
 * A command's words split into options and operands. `values`: short options whose value
 * is the next word (or the rest of the cluster); `longValues`: long ones that take the
 * next word when written without `=`. `unknown` is set when a short option outside
 * `known` and `values` appears: its value, if it has one, may have been taken for an operand.
 */
function split(args: readonly string[], values: string, longValues: readonly string[] = [], known = ''): { options: string[]; operands: string[]; valueOf: (short: string, long?: string) => string[]; unknown: boolean } {
  const options: string[] = [];
  const operands: string[] = [];
  const taken: [string, string][] = [];
  let unknown = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      options.push(a);
      const given = a.slice(2).split('=')[0]!;
      // GNU options may be abbreviated: `--log-f=x` is `--log-file=x`.
      const name = longValues.find((l) => l === given) ?? longValues.find((l) => given.length > 0 && l.startsWith(given)) ?? given;
      if (a.includes('=')) taken.push([`--${name}`, a.slice(a.indexOf('=') + 1)]);
      else if (longValues.includes(name) && i + 1 < args.length) taken.push([`--${name}`, args[++i]!]);
    } else if (a.startsWith('-') && a.length > 1) {
      options.push(a);
      for (let j = 1; j < a.length; j++) {
        const letter = a[j]!;
        if (values.includes(letter)) {
          const value = a.slice(j + 1) || args[++i];
          if (value !== undefined) taken.push([`-${letter}`, value]);
          break;
        }
        if (!known.includes(letter)) unknown = true;
      }
    } else operands.push(a);
  }
  const valueOf = (short: string, long?: string): string[] => taken.filter(([k]) => k === short || (long !== undefined && k === long)).map(([, v]) => v);
  return { options, operands, valueOf, unknown };
}

function whyGitDestructive(args: readonly string[], shown: string, objection: (targets: readonly string[], how: 'entry' | 'into') => string | undefined): string | undefined {
  const { global, rest: [sub = '', ...rest] } = gitSplit(args);
  if (global.some((a) => a === '-c' || a.startsWith('--config-env') || a.startsWith('--exec-path'))) return `${shown} sets git configuration for the command, which can make it run anything`;
  const long = (name: string, min = 2): boolean => rest.some((a) => isLong(a, name, min));
  const operands = rest.filter((a) => !a.startsWith('-'));
  // Files git writes where its options say: `log --output=F`, `archive -o F`, `format-patch -o DIR`, `checkout-index --prefix=DIR/`.
  const valueOf = (names: readonly string[], shorts: readonly string[] = []): string[] =>
    rest.flatMap((a, i) => {
      const long = names.find((n) => a.startsWith(`--${n}=`) || a === `--${n}`);
      if (long) return a.includes('=') ? [a.slice(a.indexOf('=') + 1)] : rest[i + 1] !== undefined ? [rest[i + 1]!] : [];
      const short = shorts.find((n) => a === n || (a.startsWith(n) && a.length > n.length));
      return short ? (a === short ? (rest[i + 1] !== undefined ? [rest[i + 1]!] : []) : [a.slice(short.length)]) : [];
    });
  const written = [
    ...valueOf(['output'], sub === 'archive' ? ['-o'] : []),
    ...(sub === 'format-patch' ? valueOf(['output-directory'], ['-o']) : []),
    ...(sub === 'checkout-index' ? valueOf(['prefix']) : []),
    ...(sub === 'bundle' && operands[0] === 'create' && operands[1] ? [operands[1]] : []),
    ...(sub === 'worktree' && operands[0] === 'add' && operands[1] ? [operands[1]] : []),
    ...(sub === 'clone' && operands[1] ? [operands[1]] : []),
  ];
  const writes = objection(written, 'into');
  if (writes) return writes;
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
    case 'config': {
      // Reading a key or listing writes nothing; anything else writes a config file that can make git run programs.
      const [first = ''] = operands;
      if (first === 'get' || first === 'list') return undefined;
      const writes = ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(first) || rest.some((a) => /^--(add|replace-all|unset|unset-all|rename-section|remove-section|edit)$/.test(a) || a === '-e');
      const reads = rest.some((a) => /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list)$/.test(a) || a === '-l');
      return !writes && (reads || operands.length <= 1) ? undefined : `${shown} writes git configuration, which can make git run programs`;
    }
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

/** The first target `check` objects to, as the reason; globs cannot be seen. */
function firstObjection(targets: readonly string[], how: 'entry' | 'into', check: ChangeCheck, shown: string, verb: string): string | undefined {
  for (const target of targets) {
    if (GLOB.test(target)) return `${shown} ${verb} ${target}, a pattern whose matches cannot be seen`;
    const why = check(target, how);
    if (why) return `${shown} ${verb} ${why}`;
  }
  return undefined;
}

/** cp, install and ln: the destination (`-t DIR`, else the last operand), or every operand when an option could have hidden it. */
function destinations(args: readonly string[], values: string, known: string): string[] {
  const { operands, valueOf, unknown } = split(args, values, ['target-directory', 'suffix', 'mode', 'owner', 'group'], known);
  const target = valueOf('-t', '--target-directory');
  if (unknown) return [...target, ...operands];
  if (target.length > 0) return target;
  if (operands.length === 1) return [path.basename(operands[0]!)]; // `ln -s /x` makes ./x
  return operands.slice(-1);
}

/**
 * Why `argv` is destructive (always asks), or undefined. `check` says where each target
 * leads; a relative one is taken from every folder the line may be in.
 */
export function whyDestructive(argv: readonly string[], check: ChangeCheck): string | undefined {
  const shown = argv.join(' ');
  const plain = unwrap(argv);
  if (!plain) return `${shown}: ${path.basename(argv[0] ?? '')} has an option Peon does not know, so what it runs cannot be seen`;
  const [name = '', ...args] = plain;
  const options = args.filter((a) => a.startsWith('-'));
  const operands = args.filter((a) => !a.startsWith('-'));
  const recursive = hasShort(options, 'r') || hasShort(options, 'R') || options.some((a) => isLong(a, 'recursive'));
  const force = hasShort(options, 'f') || options.some((a) => isLong(a, 'force'));
  const objection = (targets: readonly string[], how: 'entry' | 'into', verb = how === 'entry' ? 'replaces' : 'writes to'): string | undefined => firstObjection(targets, how, check, shown, verb);
  switch (name) {
    case 'rm':
    case 'rmdir':
    case 'unlink': {
      const { operands: named } = split(args, '');
      // No operand: the names come from elsewhere (`xargs rm -rf`).
      if ((recursive || force) && named.length === 0) return `${shown} deletes names it cannot see`;
      return objection(named, 'entry', 'deletes');
    }
    case 'mv': {
      const { operands: named, valueOf } = split(args, 'tS', ['target-directory', 'suffix']);
      const target = valueOf('-t', '--target-directory');
      const sources = target.length > 0 ? named : named.slice(0, -1);
      return objection(sources, 'entry', 'moves') ?? objection([...target, ...(target.length > 0 ? [] : named.slice(-1))], 'into');
    }
    case 'cp':
    case 'install':
      return objection(destinations(args, name === 'cp' ? 'tS' : 'tSmogS', name === 'cp' ? 'abdfHiLlnPprRsTuvx' : 'bcCdDpsTv'), 'into');
    case 'ln':
      return objection(destinations(args, 'tS', 'bdfFiLnPrsTv'), 'into');
    case 'tee':
      return objection(split(args, '').operands, 'into');
    case 'sed':
    case 'perl': {
      const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || isLong(a, 'in-place', 4));
      const { operands: words, valueOf } = split(args, name === 'sed' ? 'efl' : 'eEMIlx0', ['expression', 'file', 'line-length']);
      const scripts = [...valueOf('-e', '--expression'), ...(name === 'perl' ? valueOf('-E') : [])];
      const scripted = scripts.length + valueOf('-f', '--file').length > 0;
      if (name === 'sed') {
        if (valueOf('-f', '--file').length > 0) return `${shown} runs a sed script from a file, which cannot be seen`;
        if ([...scripts, ...(scripted ? [] : words.slice(0, 1))].some(sedScriptWrites)) return `${shown} has a sed script that writes files or runs commands`;
      } else if (!inPlace && (scripted || INLINE_CODE.perl!.test(args[0] ?? ''))) return `${shown} runs inline perl, whose effects cannot be seen`;
      if (!inPlace) return undefined;
      return objection(scripted ? words : words.slice(1), 'into');
    }
    case 'rsync': {
      const deletes = options.some((a) => a.startsWith('--del') || a === '--remove-source-files');
      const parsed = split(args, 'efTBM', RSYNC_VALUES);
      const logs = ['--log-file', '--write-batch', '--only-write-batch', '--backup-dir', '--partial-dir', '--temp-dir'].flatMap((o) => parsed.valueOf(o));
      const logged = objection([...logs, ...parsed.valueOf('-T')], 'into');
      if (logged) return logged;
      const { operands } = parsed;
      const dest = operands.at(-1);
      if (dest === undefined) return undefined;
      if (/^[^/]*:/.test(dest)) return `${shown} writes to another host (${dest})`;
      return objection([dest], deletes ? 'entry' : 'into', deletes ? 'deletes what is not in the source from' : 'writes to') ?? (options.includes('--remove-source-files') ? objection(operands.slice(0, -1), 'entry', 'deletes') : undefined);
    }
    case 'tar': {
      // Old style: the first word is a cluster of letters without a dash (`tar xzf a.tar`).
      const words = args[0] !== undefined && /^[a-zA-Z]+$/.test(args[0]) ? [`-${args[0]}`, ...args.slice(1)] : args;
      const { options: opts, valueOf } = split(words, 'fCbHgKNTVX', ['file', 'directory', 'to-command', 'use-compress-program']);
      const mode = (letters: string, long: string[]): boolean => opts.some((o) => (/^-[a-zA-Z]+$/.test(o) && [...letters].some((l) => o.slice(1).split(/[fCbHgKNTVX]/)[0]!.includes(l))) || long.some((l) => isLong(o, l, 3)));
      if (opts.some((o) => o === '-P' || isLong(o, 'absolute-names', 3))) return `${shown} extracts or archives absolute paths, which can reach anywhere`;
      if (opts.some((o) => /^-[a-zA-Z]*[IF]/.test(o) || ['checkpoint-action', 'to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rmt-command', 'rsh-command'].some((l) => isLong(o, l, 4)))) {
        return `${shown} runs the program its options name`;
      }
      if (mode('x', ['extract', 'get'])) return `${shown} extracts the files its archive names (.git/hooks, .vscode, anything), which cannot be seen`;
      if (mode('cruA', ['create', 'append', 'update', 'catenate', 'concatenate', 'delete'])) return objection(valueOf('-f', '--file'), 'into');
      return undefined;
    }
    case 'unzip':
    case 'cpio':
    case 'bsdtar':
      // Listing and testing modes write nothing; extracting writes whatever the archive names.
      if ((name === 'unzip' && args.some((a) => /^-[a-zA-Z]*[lvtZpc]/.test(a))) || (name === 'cpio' && !args.some((a) => /^-[a-zA-Z]*i/.test(a) || isLong(a, 'extract', 3)))) return undefined;
      return `${shown} extracts the files its archive names (.git/hooks, .vscode, anything), which cannot be seen`;
    case 'curl': {
      const parsed = split(args, 'oKdHuXAeEmrTwxyz', ['output', 'output-dir']);
      const remoteName = hasShort(options, 'O') || options.some((o) => isLong(o, 'remote-name', 8));
      return objection([...parsed.valueOf('-o', '--output'), ...parsed.valueOf('--output-dir'), ...(remoteName ? ['.'] : [])], 'into');
    }
    case 'wget': {
      const parsed = split(args, 'OPaoieBtTwlQUYeDA', ['output-document', 'directory-prefix', 'output-file', 'append-output']);
      const saved = [...parsed.valueOf('-O', '--output-document'), ...parsed.valueOf('-P', '--directory-prefix')];
      // Without -O or -P, wget saves into the folder it runs in.
      return objection([...(saved.length > 0 ? saved : ['.']), ...parsed.valueOf('-o', '--output-file'), ...parsed.valueOf('-a', '--append-output')], 'into');
    }
    case 'sort':
    case 'shuf':
      return objection(split(args, 'okStT', ['output', 'key', 'field-separator', 'temporary-directory']).valueOf('-o', '--output'), 'into');
    case 'uniq': {
      const { operands: files } = split(args, 'fsw', ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated']);
      return objection(files.slice(1, 2), 'into');
    }
    case 'gzip':
    case 'gunzip':
    case 'bzip2':
    case 'bunzip2':
    case 'xz':
    case 'unxz':
    case 'lzma':
    case 'zstd': {
      // Each operand is replaced by its (de)compressed file, unless the output goes to stdout or the original is kept.
      const keeps = hasShort(options, 'c') || hasShort(options, 'k') || hasShort(options, 't') || hasShort(options, 'l') || options.some((o) => ['--stdout', '--to-stdout', '--keep', '--test', '--list'].includes(o));
      if (name === 'zstd' && !options.includes('--rm')) return objection(split(args, 'oD').valueOf('-o'), 'into');
      return keeps ? undefined : objection(split(args, 'S').operands, 'entry', 'replaces');
    }
    case 'crontab':
      return args.length === 1 && args[0] === '-l' ? undefined : `${shown} replaces or removes your crontab, which runs commands on a schedule`;
    case 'git':
      return whyGitDestructive(args, shown, objection);
    case 'link':
      return objection(operands.slice(1, 2), 'into');
    case 'rename':
      return objection(operands, 'entry', 'renames');
    case 'zip': {
      const moves = hasShort(options, 'm') || options.some((o) => isLong(o, 'move', 3));
      return objection(operands.slice(0, 1), 'into') ?? (moves ? objection(operands.slice(1), 'entry', 'deletes') : undefined);
    }
    case '7z':
      if (operands[0] === 'x' || operands[0] === 'e') return `${shown} extracts the files its archive names (.git/hooks, .vscode, anything), which cannot be seen`;
      return objection(operands.slice(1, 2), 'into') ?? (options.includes('-sdel') ? objection(operands.slice(2), 'entry', 'deletes') : undefined);
    case 'ed':
    case 'ex':
    case 'vi':
    case 'vim':
    case 'nvim':
    case 'emacs':
    case 'nano':
      return `${shown}: an editor writes whatever file its commands name, which cannot be seen`;
    case 'patch':
      return `${shown} writes the files its patch names, which cannot be seen`;
    case 'split':
      return objection([split(args, 'abClnt', ['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'additional-suffix', 'filter']).operands[1] ?? 'x'], 'into') ??
        (options.some((o) => o.startsWith('--filter')) ? `${shown} runs the program its --filter names` : undefined);
    case 'csplit':
      return objection(split(args, 'fbn', ['prefix', 'suffix-format', 'digits']).valueOf('-f', '--prefix').concat(['xx']), 'into');
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk': {
      const parsed = split(args, 'fvFE', ['file', 'assign', 'field-separator', 'include', 'load', 'source']);
      const program = parsed.valueOf('-f', '--file').length > 0 || parsed.valueOf('-E').length > 0 ? undefined : parsed.operands[0];
      if (program === undefined) return `${shown} runs an awk program from a file, which cannot be seen`;
      return /system|getline|close|fflush|\||>|-i\s*inplace/.test(program) || options.some((o) => /^(-i|--include)/.test(o)) ? `${shown} runs an awk program that may write files or run commands` : undefined;
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
    case 'chgrp': {
      const targets = options.some((a) => a.startsWith('--reference')) ? operands : operands.slice(1);
      return objection(targets, recursive ? 'entry' : 'into', 'changes the modes or owner of');
    }
    case 'find': {
      if (args.includes('-delete') || args.some((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir')) return `${shown} deletes or runs commands on every match`;
      const written = args.flatMap((a, i) => (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a) && args[i + 1] !== undefined ? [args[i + 1]!] : []));
      return objection(written, 'into');
    }
    default: {
      if (name.startsWith('mkfs.')) return `${name} formats a file system`;
      const interpreter = /^python[\d.]*$/.test(name) ? 'python' : name;
      const inline = INLINE_CODE[interpreter];
      if (inline && args.some((a) => inline.test(a))) return `${shown} runs inline ${interpreter} code, whose effects cannot be seen`;
      // A shell reading its script from its input (\`… | bash\`, \`bash <<< …\`): nothing to see.
      if (SHELLS.has(name) && !args.some((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) && operands.length === 0) return `${shown} runs a script from its input, which cannot be seen`;
      return undefined;
    }
  }
}
