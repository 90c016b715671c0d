import fs from 'node:fs';
import { parseArgs, UsageError } from '../args';
import type { CliIo } from '../io';
import { openToolHost } from '../toolHost';

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every line of a batch, as `{ tool, input }`, or the reason it is not one. */
function batchLines(text: string): ({ tool: string; input: unknown } | { error: string })[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        const value = JSON.parse(line) as { tool?: unknown; input?: unknown };
        if (typeof value !== 'object' || value === null || typeof value.tool !== 'string') return { error: `line ${i + 1}: needs a "tool" string and an "input" object` };
        return { tool: value.tool, input: value.input ?? {} };
      } catch (error) {
        return { error: `line ${i + 1}: ${error instanceof Error ? error.message : String(error)}` };
      }
    });
}

/** The shape of DESIGN.md §8 with every key present: risk and permission are null when the call never got that far. */
function withAllKeys(outcome: { ok: boolean; risk?: unknown; permission?: unknown } & Record<string, unknown>): Record<string, unknown> {
  if (outcome.ok) return outcome;
  const { tool, ok, error } = outcome;
  return { tool, ok, error, risk: outcome.risk ?? null, permission: outcome.permission ?? null };
}

export const toolCommand = {
  summary: 'Run one tool call, or --batch FILE|- of JSON lines in one session. NAME --workspace DIR --input JSON [--approve all|none] [--config FILE]',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const args = parseArgs(argv, ['workspace', 'input', 'approve', 'config', 'batch']);
    const batch = args.values.batch;
    const [name, ...extra] = args.positionals;
    if (batch === undefined && name === undefined) throw new UsageError('peon tool needs a tool name (or --batch FILE).');
    if (extra.length > 0 || (batch !== undefined && (name !== undefined || args.values.input !== undefined))) {
      throw new UsageError('Give either NAME --input JSON, or --batch FILE, and nothing else.');
    }
    const calls =
      batch === undefined
        ? [{ tool: name!, input: parseJson(args.values.input ?? '{}', '--input') }]
        : batchLines(fs.readFileSync(batch === '-' ? 0 : batch, 'utf8'));
    const host = openToolHost({ workspace: args.values.workspace, config: args.values.config, approve: args.values.approve, batch: batch !== undefined });
    try {
      for (const warning of host.warnings) io.stderr(`peon: ${warning}\n`);
      for (const warning of await host.startMcp()) io.stderr(`peon: ${warning}\n`);
      for (const call of calls) {
        const outcome =
          'error' in call
            ? { tool: null, ok: false, error: { code: 'invalid_input', message: `Batch ${call.error}` } }
            : await host.conversation.call(call.tool, call.input);
        io.stdout(`${JSON.stringify(withAllKeys(outcome))}\n`);
      }
    } finally {
      await host.close();
    }
    return 0;
  },
};
