// A small argv parser for the `peon` commands: `--flag value`, `--flag=value`, boolean
// flags, positionals. Anything it does not know is a usage error (exit 2).

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string>>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** `valued`: options that take a value; `booleans`: options that do not. */
export function parseArgs(argv: readonly string[], valued: readonly string[], booleans: readonly string[] = []): ParsedArgs {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (booleans.includes(name) && eq === -1) {
      flags.add(name);
    } else if (valued.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value.`);
      if (name in values) throw new UsageError(`--${name} is given twice.`);
      values[name] = value;
    } else {
      throw new UsageError(`Unknown option --${name}.`);
    }
  }
  return { values, flags, positionals };
}
