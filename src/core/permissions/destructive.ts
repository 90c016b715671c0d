// Destructive commands (DESIGN.md §5): they always ask, in every mode and under every
// rule. A command is destructive when it deletes, moves or overwrites something outside
// the workspace, a workspace folder itself, `.git` or a protected path, or names its
// targets in a way that cannot be seen (a glob, no operand at all); and some commands
// are destructive whatever they name (`git push --force`, `shred`, `dd of=`).
// Which words of a command are its targets is known here; where a target leads is the
// caller's `ChangeCheck`, which resolves it the way the kernel will.
import path from 'node:path';
import { SHELLS, unwrap } from '../shell/commandWords';
import { sedScriptWrites } from '../shell/sedScript';
import { hasShort, isLong, split } from './commandOptions';
import { whyGitDestructive } from './gitDestructive';

const GLOB = /[*?[]/;

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

/**
 * What a command deletes even where the gate lets it be granted (`rm -rf node_modules`
 * inside the workspace): shown on its card as destructive, and never offered as a
 * permanent rule. Undefined for anything else.
 */
export function whyDeletes(argv: readonly string[]): string | undefined {
  const plain = unwrap(argv);
  const name = plain?.[0];
  if (!plain || (name !== 'rm' && name !== 'rmdir' && name !== 'unlink' && name !== 'shred')) return undefined;
  const { operands } = split(plain.slice(1), '');
  return `${argv.join(' ')} deletes ${operands.length > 0 ? operands.join(', ') : 'files'}`;
}
