// The agent loop (DESIGN.md §6): stream the model's turn; run each tool call in order
// through the conversation's call pipeline (validate, assess, gate, execute); append the results;
// next turn, until the model stops, the user cancels, the step cap, or the same failing
// call repeats. Every tool call gets exactly one result, so the next request is always
// valid for the provider.
import type { ToolCallOutcome } from '../conversation/pipeline';
import { addUsage, ModelError, NO_USAGE, type HistoryItem, type ModelClient, type ModelFailure, type ToolResultItem, type ModelEvent, type ToolCall, type ToolSpec, type Usage } from '../model/modelClient';
import { costOf, type Price } from '../model/modelInfo';
import { compact, saveSummary, type CompactionPolicy } from './compaction';
import { streamWithRetry, type RetryPolicy } from './retry';
import type { SkillUse } from '../skills/slashCommand';

export type FinalReason = 'end_turn' | 'max_tokens' | 'step_cap' | 'cancelled' | 'repeated_failure' | 'error';

export type LoopEvent =
  /**
   * A user message joined the history: the turn's prompt, or (`incoming`) one that arrived
   * while the turn ran: a background subagent's report, or (`queued`: its id) a message the
   * person typed meanwhile.
   */
  | { readonly type: 'prompt'; readonly text: string; readonly incoming?: true; readonly queued?: string }
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'tool_result'; readonly call: ToolCall; readonly outcome: ToolCallOutcome | { ok: false; error: { code: string; message: string } } }
  /**
   * Tokens of one model request (`turn`) and of this prompt so far (`total`), with
   * their cost in USD when the model's price is known. `compaction`: the request
   * summarised older turns, so its size says nothing about the context.
   */
  | { readonly type: 'usage'; readonly turn: Usage; readonly total: Usage; readonly cost?: { readonly turn: number; readonly total: number }; readonly compaction?: true }
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly error: string }
  | { readonly type: 'compacted'; readonly summary: string; readonly memoryId?: string }
  /** `/skill-name` in the prompt loaded a skill (or forked its subagent), before the turn began. */
  | ({ readonly type: 'skill' } & SkillUse)
  | { readonly type: 'final'; readonly reason: FinalReason; readonly text: string; readonly error?: string; readonly failure?: ModelFailure };

/** Runs one tool call to its outcome (the conversation's call pipeline). */
export interface ToolCaller {
  call(name: string, input: unknown, callId?: string): Promise<ToolCallOutcome>;
}

export interface LoopOptions {
  readonly client: ModelClient;
  readonly session: ToolCaller;
  readonly system: string;
  /**
   * What rides along with every model request after the system prompt (plan mode's
   * reminder, the open todos), read afresh each time: compaction cannot lose it.
   */
  readonly reminders?: () => Promise<readonly string[]>;
  /**
   * Messages that arrived while the turn ran (a background subagent's report, a message
   * the person queued), read before each model request; each joins the history as a user message.
   */
  readonly incoming?: () => readonly Incoming[];
  readonly tools: readonly ToolSpec[];
  readonly signal: AbortSignal;
  readonly onEvent: (event: LoopEvent) => void;
  readonly maxSteps?: number;
  readonly maxTokens?: number;
  /** The same failing call (tool + arguments) this many times stops the loop. */
  readonly maxRepeatedFailures?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Each item as it joins the history (sessions persist them one by one). */
  readonly onHistory?: (item: HistoryItem) => void;
  /** Summarise older turns before the window fills; the summary is saved to memory under `memoryRoot`. */
  readonly compaction?: CompactionPolicy & { readonly memoryRoot?: string; readonly onCompacted?: (history: HistoryItem[]) => void };
  /** The size of the last request of the previous turn (0 for a new conversation). */
  readonly contextTokens?: number;
  /** The model's price, when known: usage events then carry their cost. */
  readonly price?: Price;
}

/** A message that arrived during a turn: a subagent's report, or the person's queued message with its id. */
export type Incoming = string | { readonly text: string; readonly queued: string };

type Outcome = LoopEvent & { type: 'tool_result' };

const failed = (code: string, message: string): Outcome['outcome'] => ({ ok: false, error: { code, message } });

/** A tool call's arguments as an object, or the reason they are not one. */
function parseArguments(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const value: unknown = JSON.parse(raw === '' ? '{}' : raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, message: 'The arguments were not a JSON object. Send the parameters as one JSON object and retry.' };
  } catch {
    return { ok: false, message: 'The arguments were not valid JSON, so nothing ran. Send the parameters as one JSON object and retry.' };
  }
}

/** Runs one user prompt to its end, appending to `history` as it goes. */
export async function runAgentTurn(
  history: HistoryItem[],
  prompt: string,
  options: LoopOptions,
): Promise<{ reason: FinalReason; text: string; usage: Usage; contextTokens: number; steps: number }> {
  const maxSteps = options.maxSteps ?? 50;
  const maxRepeats = options.maxRepeatedFailures ?? 3;
  const failures = new Map<string, number>();
  let total = NO_USAGE;
  let lastText = '';
  const remember = (item: HistoryItem): void => {
    history.push(item);
    options.onHistory?.(item);
  };
  // The same prompt again after one the model never answered (its request failed) is a retry of it, not a second message.
  const last = history.at(-1);
  if (last?.role !== 'user' || last.text !== prompt) remember({ role: 'user', text: prompt });
  options.onEvent({ type: 'prompt', text: prompt });
  let contextTokens = options.contextTokens ?? 0; // the size of the last request, as the provider counted it
  const count = (turn: Usage, compaction = false): void => {
    total = addUsage(total, turn);
    const { price } = options;
    const cost = price ? { turn: costOf(turn, price), total: costOf(total, price) } : undefined;
    options.onEvent({ type: 'usage', turn, total, ...(cost ? { cost } : {}), ...(compaction ? { compaction: true as const } : {}) });
  };
  let steps = 0;
  const finish = (reason: FinalReason, error?: string, failure?: ModelFailure) => {
    options.onEvent({ type: 'final', reason, text: lastText, ...(error ? { error } : {}), ...(failure ? { failure } : {}) });
    return { reason, text: lastText, usage: total, contextTokens, steps };
  };

  for (let step = 0; step < maxSteps; step++) {
    steps = step + 1;
    for (const message of options.incoming?.() ?? []) {
      const text = typeof message === 'string' ? message : message.text;
      remember({ role: 'user', text });
      options.onEvent({ type: 'prompt', text, incoming: true, ...(typeof message === 'string' ? {} : { queued: message.queued }) });
    }
    const policy = options.compaction;
    if (policy && contextTokens > policy.contextWindow * policy.threshold) {
      try {
        const compacted = await compact(history, options.client, policy, options.signal);
        if (compacted) count(compacted.usage, true);
        if (compacted?.history) {
          history.splice(0, history.length, ...compacted.history);
          policy.onCompacted?.(history);
          const memoryId = policy.memoryRoot ? await saveSummary(policy.memoryRoot, compacted.summary).catch(() => undefined) : undefined;
          options.onEvent({ type: 'compacted', summary: compacted.summary, ...(memoryId ? { memoryId } : {}) });
        }
      } catch {
        if (options.signal.aborted) return finish('cancelled');
        // A failed summary is not fatal: the turn goes on with the full history.
      }
    }
    let done: Extract<ModelEvent, { type: 'done' }> | undefined;
    const incomplete = new Set<string>();
    try {
      const reminders = (await options.reminders?.()) ?? [];
      const system = [options.system, ...reminders].join('\n\n');
      for await (const event of streamWithRetry(options.client, { system, history, tools: options.tools, maxTokens: options.maxTokens ?? 8192 }, options.signal, options.retry, (r) => options.onEvent({ type: 'retry', ...r }))) {
        if (event.type === 'text') options.onEvent({ type: 'text', delta: event.delta });
        else if (event.type === 'tool_call' && !event.complete) incomplete.add(event.call.id);
        else if (event.type === 'done') done = event;
      }
    } catch (error) {
      if (options.signal.aborted) return finish('cancelled');
      return error instanceof ModelError ? finish('error', error.message, error.failure) : finish('error', String(error));
    }
    if (!done) return finish('error', 'The model stream ended without a message.');
    count(done.usage);
    contextTokens = done.usage.inputTokens + done.usage.cacheReadTokens + done.usage.cacheWriteTokens + done.usage.outputTokens;
    remember(done.message);
    lastText = done.message.text;
    if (done.message.toolCalls.length === 0) return finish(done.stopReason === 'max_tokens' ? 'max_tokens' : done.stopReason === 'cut_off' ? 'error' : 'end_turn', done.stopReason === 'cut_off' ? 'The model stream was cut off.' : undefined);

    const results: ToolResultItem[] = [];
    let repeated: string | undefined;
    for (const call of done.message.toolCalls) {
      options.onEvent({ type: 'tool_call', call });
      let outcome: Outcome['outcome'];
      const args = parseArguments(call.arguments);
      if (options.signal.aborted) outcome = failed('cancelled', 'The user stopped the run before this call; nothing ran.');
      else if (incomplete.has(call.id)) outcome = failed('invalid_input', 'This tool call was cut off mid-stream, so nothing ran. Send the complete call again.');
      else if (!args.ok) outcome = failed('invalid_input', args.message);
      else outcome = await options.session.call(call.name, args.value, call.id);
      options.onEvent({ type: 'tool_result', call, outcome });
      results.push(
        outcome.ok
          ? { callId: call.id, output: outcome.output, isError: false, ...(outcome.images ? { images: outcome.images } : {}) }
          : { callId: call.id, output: `Error (${outcome.error.code}): ${outcome.error.message}`, isError: true },
      );
      if (!outcome.ok && outcome.error.code !== 'cancelled') {
        const key = `${call.name}\u0000${call.arguments}`;
        const count = (failures.get(key) ?? 0) + 1;
        failures.set(key, count);
        if (count >= maxRepeats) repeated = call.name;
      }
    }
    remember({ role: 'tool', results });
    if (options.signal.aborted) return finish('cancelled');
    if (repeated) return finish('repeated_failure', `The same failing ${repeated} call was made ${maxRepeats} times; stopped so it does not go on. Change the approach or ask the user.`);
  }
  return finish('step_cap', `Stopped after ${maxSteps} model turns (the step cap).`);
}
