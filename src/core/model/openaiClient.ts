// OpenAI-compatible Chat Completions through the official SDK, streaming, with a base
// URL (OpenAI, Ollama, LM Studio, vLLM, OpenRouter, llama.cpp's server). Tool calls are
// assembled from their indexed deltas; a stream that ends without a finish reason leaves
// its calls flagged as cut off.
import OpenAI from 'openai';
import { imagesNotSent, ModelError, NO_USAGE, toModelError, type HistoryItem, type ModelClient, type ModelEvent, type ModelRequest, type StopReason, type ToolCall, type Usage } from './modelClient';

export interface OpenAIOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseUrl?: string;
  /** The context window, when the server was asked (a local server's: localServers.ts). */
  readonly contextWindow?: number;
}

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toMessages(system: string, history: readonly HistoryItem[]): Message[] {
  const messages: Message[] = [{ role: 'system', content: system }];
  for (const item of history) {
    if (item.role === 'user') messages.push({ role: 'user', content: item.text });
    else if (item.role === 'tool') {
      for (const r of item.results) messages.push({ role: 'tool', tool_call_id: r.callId, content: `${r.isError ? `Error: ${r.output}` : r.output}${imagesNotSent(r)}` });
    } else {
      messages.push({
        role: 'assistant',
        content: item.text === '' ? null : item.text,
        ...(item.toolCalls.length > 0
          ? { tool_calls: item.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
    }
  }
  return messages;
}

const STOP: Readonly<Record<string, StopReason>> = { stop: 'end_turn', tool_calls: 'tool_use', function_call: 'tool_use', length: 'max_tokens' };

export function openaiClient(options: OpenAIOptions): ModelClient {
  const client = new OpenAI({ apiKey: options.apiKey, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}), maxRetries: 0 });
  return {
    provider: 'openai',
    model: options.model,
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      const calls = new Map<number, { id: string; name: string; arguments: string }>();
      let text = '';
      let usage: Usage = NO_USAGE;
      let finish: string | null = null;
      let started = false;
      try {
        const stream = await client.chat.completions.create(
          {
            model: options.model,
            max_tokens: request.maxTokens,
            messages: toMessages(request.system, request.history),
            ...(request.tools.length > 0
              ? { tools: request.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.inputSchema as Record<string, unknown> } })) }
              : {}),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal },
        );
        for await (const chunk of stream) {
          started = true;
          if (chunk.usage) {
            // Servers leave fields out (no completion_tokens, only total_tokens): every count stays a finite number.
            const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = chunk.usage as { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
            const cached = finite(chunk.usage.prompt_tokens_details?.cached_tokens);
            const output = completion ?? (total !== undefined && prompt !== undefined ? total - prompt : 0);
            usage = { inputTokens: Math.max(0, finite(prompt) - cached), outputTokens: finite(output), cacheReadTokens: cached, cacheWriteTokens: 0 };
          }
          const choice = chunk.choices[0];
          if (!choice) continue;
          if (choice.delta.content) {
            text += choice.delta.content;
            yield { type: 'text', delta: choice.delta.content };
          }
          for (const d of choice.delta.tool_calls ?? []) {
            const call = calls.get(d.index) ?? { id: '', name: '', arguments: '' };
            if (d.id) call.id = d.id;
            if (d.function?.name) call.name += d.function.name;
            if (d.function?.arguments) call.arguments += d.function.arguments;
            calls.set(d.index, call);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (error) {
        if (signal.aborted) throw new ModelError('cancelled', false);
        if (!started) throw toModelError(error, 'openai', client.baseURL);
      }
      if (signal.aborted) throw new ModelError('cancelled', false); // the SDK may end the stream quietly on abort
      const complete = finish !== null;
      const toolCalls: ToolCall[] = [...calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments }));
      for (const call of toolCalls) yield { type: 'tool_call', call, complete };
      yield {
        type: 'done',
        stopReason: complete ? (STOP[finish!] ?? 'other') : 'cut_off',
        usage,
        message: { role: 'assistant', text, toolCalls },
      };
    },
  };
}

/** A token count as a provider may send it (missing, null, negative): a finite number of at least 0. */
function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
