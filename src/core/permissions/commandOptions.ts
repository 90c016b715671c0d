// Reading a command's options the way GNU getopt and git do: long options by any unique
// prefix, short ones in clusters, values glued or in the next word.

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
export function split(args: readonly string[], values: string, longValues: readonly string[] = [], known = ''): { options: string[]; operands: string[]; valueOf: (short: string, long?: string) => string[]; unknown: boolean } {
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
