// The `peon` command: the same core as the extension, headless (DESIGN.md §8).
// Commands are added to COMMANDS as the tools and the agent loop land.
import { version } from '../../package.json';
import { UsageError } from './args';
import { runCommand } from './commands/run';
import { toolCommand } from './commands/tool';
import { toolsCommand } from './commands/tools';
import type { CliIo } from './io';

interface Command {
  readonly summary: string;
  run(args: readonly string[], io: CliIo): Promise<number> | number;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  help: { summary: 'Show this help.', run: (_args, io) => (io.stdout(usage()), 0) },
  version: { summary: 'Print the version.', run: (_args, io) => (io.stdout(`${version}\n`), 0) },
  tools: toolsCommand,
  tool: toolCommand,
  run: runCommand,
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    `peon ${version}: the Peon coding agent, headless.`,
    '',
    'Usage: peon <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    '  -h, --help     Show this help.',
    '  -V, --version  Print the version.',
    '',
    'Exit codes: 0 when the command ran, 2 for usage errors.',
    '',
  ].join('\n');
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') return COMMANDS.help!.run(rest, io);
  if (first === '-V' || first === '--version') return COMMANDS.version!.run(rest, io);
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!command) {
    io.stderr(`peon: unknown command '${first}'. Run 'peon --help' for the list.\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`peon ${first}: ${error.message}\n`);
    return 2;
  }
}

if (require.main === module) {
  // `peon … | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`peon: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
