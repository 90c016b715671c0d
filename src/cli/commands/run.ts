// `peon run` (DESIGN.md §8): one agent turn in the terminal, through the same loop and
// tool session as the panel. --json prints one event per line, tool results whole; the
// human-readable mode cuts tool results to 500 characters (the model always gets them whole).

import { runAgentTurn, type LoopEvent } from '../../core/agent/loop';
import { priceOf, windowOf } from '../../core/model/modelInfo';
import { buildSystemPrompt } from '../../core/agent/systemPrompt';
import { anthropicClient } from '../../core/model/anthropicClient';
import type { ModelClient } from '../../core/model/modelClient';
import { modelJudge } from '../../core/permissions/judgeModel';
import type { SettingValues } from '../../core/settings';
import { openaiClient } from '../../core/model/openaiClient';
import { builtinRegistry } from '../../core/tools/builtins';
import { formatUsd } from '../../shared/format';
import { parseArgs, UsageError } from '../args';
import type { CliIo } from '../io';
import { openToolHost } from '../toolHost';

const SHOWN_RESULT_CHARS = 500;

function makeClient(provider: string, model: string, baseUrl: string | undefined): ModelClient {
  if (provider === 'anthropic') {
    const apiKey = process.env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new UsageError('Set ANTHROPIC_API_KEY to use --provider anthropic.');
    return anthropicClient({ apiKey, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  if (provider === 'openai') {
    // Local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp) need no key.
    const apiKey = process.env.OPENAI_API_KEY ?? (baseUrl ? 'none' : undefined);
    if (!apiKey) throw new UsageError('Set OPENAI_API_KEY (or give --base-url for a local server) to use --provider openai.');
    return openaiClient({ apiKey, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  throw new UsageError(`--provider takes anthropic or openai, not ${JSON.stringify(provider)}.`);
}

function usageLine(event: LoopEvent & { type: 'usage' }): string {
  const t = event.total;
  const tokens = `${t.inputTokens} in, ${t.outputTokens} out, ${t.cacheReadTokens} cache read, ${t.cacheWriteTokens} cache write`;
  return `peon: ${tokens}${event.cost ? ` · ${formatUsd(event.cost.total)}` : ' · cost unknown'}\n`;
}

function human(event: LoopEvent, io: CliIo, last: { usage?: LoopEvent & { type: 'usage' } }): void {
  switch (event.type) {
    case 'text':
      io.stdout(event.delta);
      break;
    case 'tool_call':
      io.stdout(`\n→ ${event.call.name} ${event.call.arguments}\n`);
      break;
    case 'tool_result': {
      const text = event.outcome.ok ? event.outcome.output : `Error (${event.outcome.error.code}): ${event.outcome.error.message}`;
      io.stdout(`${text.length > SHOWN_RESULT_CHARS ? `${text.slice(0, SHOWN_RESULT_CHARS)}… [${text.length - SHOWN_RESULT_CHARS} more characters]` : text}\n`);
      break;
    }
    case 'retry':
      io.stderr(`peon: ${event.error}; retrying in ${event.delayMs} ms (attempt ${event.attempt})\n`);
      break;
    case 'compacted':
      io.stderr(`peon: earlier turns summarised to stay within the context window${event.memoryId ? ` (memory ${event.memoryId})` : ''}\n`);
      break;
    case 'final':
      io.stdout('\n');
      if (event.reason !== 'end_turn') io.stderr(`peon: stopped (${event.reason})${event.error ? `: ${event.error}` : ''}\n`);
      if (last.usage) io.stderr(usageLine(last.usage));
      break;
    case 'usage':
      last.usage = event;
      break;
  }
}

export const runCommand = {
  summary: 'Run one agent turn. --workspace DIR [--provider anthropic|openai] [--model M] [--base-url URL] [--approve all|none] [--config FILE] [--json] PROMPT',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const args = parseArgs(argv, ['workspace', 'provider', 'model', 'base-url', 'approve', 'config'], ['json']);
    const prompt = args.positionals.join(' ').trim();
    if (prompt === '') throw new UsageError('peon run needs a prompt.');
    const clientFor = (values: SettingValues): ModelClient => {
      const provider = args.values.provider ?? values['peon.model.provider'] ?? 'anthropic';
      const model = args.values.model ?? values['peon.model.id'];
      if (!model) throw new UsageError('Name the model with --model (or peon.model.id in --config).');
      return makeClient(provider, model, args.values['base-url'] ?? values['peon.model.baseUrl']);
    };
    const host = openToolHost({
      workspace: args.values.workspace,
      config: args.values.config,
      approve: args.values.approve,
      judge: (values, signal) => modelJudge(clientFor(values), signal),
    });
    try {
      for (const warning of host.warnings) io.stderr(`peon: ${warning}\n`);
      const values = host.settings.values;
      const client = clientFor(values);
      const price = priceOf(client.provider, client.model, args.values['base-url'] ?? values['peon.model.baseUrl'], values['peon.model.price']);
      const tools = builtinRegistry()
        .list()
        .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      const json = args.flags.has('json');
      const last = {};
      await runAgentTurn([], prompt, {
        client,
        session: host.session,
        system: buildSystemPrompt({ workspace: host.workspace, tools, date: new Date() }),
        tools,
        signal: host.signal,
        compaction: { contextWindow: windowOf(client), threshold: values['peon.compaction.threshold'] ?? 0.8, keepTurns: 1, memoryRoot: host.workspace.root.root },
        ...(price ? { price } : {}),
        onEvent: (event) => (json ? io.stdout(`${JSON.stringify(event)}\n`) : human(event, io, last)),
      });
    } finally {
      host.close();
    }
    return 0;
  },
};
