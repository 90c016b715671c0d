// git's destructive commands (DESIGN.md §5): what rewrites or deletes history, discards
// uncommitted work, writes git's own config, or writes files where its options say.
import { gitSplit, hasShort, isLong } from './commandOptions';

/** Why `git args` always asks, or undefined; `objection` judges the files it would write. */
export function whyGitDestructive(args: readonly string[], shown: string, objection: (targets: readonly string[], how: 'entry' | 'into') => string | undefined): string | undefined {
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
