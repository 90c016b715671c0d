// `peon run` (DESIGN.md §8): one agent turn in the terminal, through the same loop and
// tool session as the panel. --json prints one event per line, tool results whole; the
// human-readable mode cuts tool results to 500 characters (the model always gets them whole).

import type { LoopEvent } from '../../core/agent/loop';
import { modelClient } from '../../core/model/clients';
import { addUsage, NO_USAGE, type ModelClient, type Usage } from '../../core/model/modelClient';
import { stripTerminalEscapes } from '../../core/process/terminalText';
import type { SettingValues } from '../../core/settings';
import type { AgentInfo } from '../../shared/messages';
import { formatUsd } from '../../shared/format';
import { parseArgs, UsageError } from '../args';
import type { CliIo } from '../io';
import { openToolHost } from '../toolHost';

const SHOWN_RESULT_CHARS = 500;

function makeClient(values: SettingValues): ModelClient {
  const provider = values['peon.model.provider'] ?? 'anthropic';
  const model = values['peon.model.id'];
  const baseUrl = values['peon.model.baseUrl'];
  if (!model) throw new UsageError('Name the model with --model (or peon.model.id in --config).');
  if (provider === 'anthropic') {
    const apiKey = process.env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new UsageError('Set ANTHROPIC_API_KEY to use --provider anthropic.');
    return modelClient('anthropic', { apiKey, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  if (provider === 'openai') {
    // Local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp) need no key.
    const apiKey = process.env.OPENAI_API_KEY ?? (baseUrl ? 'none' : undefined);
    if (!apiKey) throw new UsageError('Set OPENAI_API_KEY (or give --base-url for a local server) to use --provider openai.');
    return modelClient('openai', { apiKey, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  throw new UsageError(`--provider takes anthropic or openai, not ${JSON.stringify(provider)}.`);
}

/** What the whole turn spent (its reports' follow-ups included): every request's tokens, and their cost while each one's is known. */
interface Spend {
  tokens: Usage;
  cost: number | undefined;
  requests: number;
}

function usageLine(spend: Spend): string {
  const t = spend.tokens;
  const tokens = `${t.inputTokens} in, ${t.outputTokens} out, ${t.cacheReadTokens} cache read, ${t.cacheWriteTokens} cache write`;
  return `peon: ${tokens}${spend.cost !== undefined ? ` · ${formatUsd(spend.cost)}` : ' · cost unknown'}\n`;
}

/** The subagents' share, per child: they count in the session's spend. */
function agentsLine(agents: readonly AgentInfo[]): string {
  if (agents.length === 0) return '';
  const total = agents.reduce((sum, a) => sum + a.tokens, 0);
  const cost = agents.every((a) => a.cost !== undefined) ? ` · ${formatUsd(agents.reduce((sum, a) => sum + (a.cost ?? 0), 0))}` : '';
  return `peon: subagents ${total} tokens${cost} (${agents.map((a) => `${a.name} ${a.status} ${a.tokens}`).join(', ')})\n`;
}

/** A subagent's calls and its end, one line each, marked with its name (its text is in its report). */
function humanAgent(name: string, event: LoopEvent, io: CliIo): void {
  const who = `  [${shown(name)}]`;
  if (event.type === 'tool_call') io.stdout(`${who} → ${shown(event.call.name)} ${shown(event.call.arguments.slice(0, 200))}\n`);
  else if (event.type === 'tool_result' && !event.outcome.ok) io.stdout(`${who} Error (${event.outcome.error.code}): ${shown(event.outcome.error.message.slice(0, 300))}\n`);
  else if (event.type === 'tool_result' && 'headline' in event.outcome && event.outcome.headline) io.stdout(`${who} ✓ ${shown(event.outcome.headline)}\n`);
  else if (event.type === 'final') io.stdout(`${who} ended (${event.reason})\n`);
}

/**
 * What reaches the terminal of a model's text or a tool's result (a fetched page, a
 * command's output): no escape sequence, control character or carriage return, so
 * neither can set the clipboard (OSC 52), retitle the window or draw over a line.
 */
const shown = (text: string): string => stripTerminalEscapes(text).replace(/\r/g, '');

function human(event: LoopEvent, io: CliIo, spend: Spend): void {
  switch (event.type) {
    case 'text':
      io.stdout(shown(event.delta));
      break;
    case 'tool_call':
      io.stdout(`\n→ ${shown(event.call.name)} ${shown(event.call.arguments)}\n`);
      break;
    case 'tool_result': {
      const text = event.outcome.ok ? event.outcome.output : `Error (${event.outcome.error.code}): ${event.outcome.error.message}`;
      // A tool that says what it did in a sentence (webfetch, websearch) leads with it.
      if (event.outcome.ok && 'headline' in event.outcome && event.outcome.headline) io.stdout(`✓ ${shown(event.outcome.headline)}\n`);
      io.stdout(`${shown(text.length > SHOWN_RESULT_CHARS ? `${text.slice(0, SHOWN_RESULT_CHARS)}… [${text.length - SHOWN_RESULT_CHARS} more characters]` : text)}\n`);
      break;
    }
    case 'prompt':
      if (event.incoming) io.stderr('peon: a background subagent ended; its report joined the conversation\n');
      break;
    case 'retry':
      io.stderr(`peon: ${shown(event.error)}; retrying in ${event.delayMs} ms (attempt ${event.attempt})\n`);
      break;
    case 'skill':
      io.stderr(`peon: ${event.error ? `/${shown(event.name)} could not be loaded: ${shown(event.error)}` : `skill ${shown(event.name)} ${event.forked ? `started as subagent ${shown(event.forked)}` : 'loaded'} (${shown(event.source)}, sha256 ${event.sha256?.slice(0, 12)})${event.hidden.length ? `; it hides ${shown(event.hidden.join(', '))}` : ''}`}
`);
      break;
    case 'compacted':
      io.stderr(`peon: earlier turns summarised to stay within the context window${event.memoryId ? ` (memory ${event.memoryId})` : ''}\n`);
      break;
    case 'final':
      io.stdout('\n');
      if (event.reason !== 'end_turn') io.stderr(`peon: stopped (${event.reason})${event.error ? `: ${shown(event.error)}` : ''}\n`);
      break;
    case 'usage':
      spend.tokens = addUsage(spend.tokens, event.turn);
      spend.cost = event.cost && spend.cost !== undefined ? spend.cost + event.cost.turn : undefined;
      spend.requests++;
      break;
  }
}

export const runCommand = {
  summary: 'Run one agent turn. --workspace DIR [--provider anthropic|openai] [--model M] [--base-url URL] [--approve all|none] [--config FILE] [--json] PROMPT',
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const args = parseArgs(argv, ['workspace', 'provider', 'model', 'base-url', 'approve', 'config'], ['json']);
    const prompt = args.positionals.join(' ').trim();
    if (prompt === '') throw new UsageError('peon run needs a prompt.');
    const provider = args.values.provider;
    if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') throw new UsageError(`--provider takes anthropic or openai, not ${JSON.stringify(provider)}.`);
    const json = args.flags.has('json');
    // --json: every event carries the agent's name; a subagent's go out as they happen.
    const host = openToolHost({
      workspace: args.values.workspace,
      config: args.values.config,
      approve: args.values.approve,
      overrides: {
        ...(provider ? { 'peon.model.provider': provider } : {}),
        ...(args.values.model ? { 'peon.model.id': args.values.model } : {}),
        ...(args.values['base-url'] ? { 'peon.model.baseUrl': args.values['base-url'] } : {}),
      },
      agentHooks: { onAgentEvent: (name, event) => (json ? io.stdout(`${JSON.stringify({ agent: name, ...event })}\n`) : humanAgent(name, event, io)) },
    });
    try {
      for (const warning of host.warnings) io.stderr(`peon: ${warning}\n`);
      const client = makeClient(host.settings.values);
      for (const warning of await host.startMcp()) io.stderr(`peon: ${warning}\n`);
      const spend: Spend = { tokens: NO_USAGE, cost: 0, requests: 0 };
      const agent = host.conversation.name;
      // settle: background subagents still running when the model stops are waited for, and their reports answered.
      await host.conversation.turn(prompt, client, (event) => (json ? io.stdout(`${JSON.stringify({ agent, ...event })}\n`) : human(event, io, spend)), { settle: true });
      if (!json && spend.requests > 0) io.stderr(usageLine(spend));
      if (!json) io.stderr(agentsLine(host.conversation.subagents.list()));
      // The run is the conversation: when it ends, what it did joins the workspace's memory (peon.memory.enabled).
      const summary = await host.conversation.closeToMemory().catch((error: unknown) => io.stderr(`peon: the run's summary was not saved to memory: ${error instanceof Error ? error.message : String(error)}\n`));
      if (summary) io.stderr(`peon: this run's summary is in memory as ${summary}\n`);
    } finally {
      // A turn that ended otherwise (an error, the step cap) leaves nothing running behind the command.
      host.conversation.stop();
      await host.conversation.subagents.idle();
      await host.close();
    }
    return 0;
  },
};
