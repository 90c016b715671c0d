// Anthropic Messages API through the official SDK, streaming: prompt caching on the
// system prompt and the tools, thinking blocks kept verbatim for the next request (the
// API requires them back with their signatures), tool calls assembled from their JSON
// deltas and flagged when the stream ends inside one.
import Anthropic from '@anthropic-ai/sdk';
import { ModelError, NO_USAGE, toModelError, type HistoryItem, type ModelClient, type ModelEvent, type ModelRequest, type StopReason, type ToolCall, type Usage } from './modelClient';

export interface AnthropicOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseUrl?: string;
}

type Block = { type: string; id?: string; name?: string; text?: string; json?: string; raw: Record<string, unknown>; stopped: boolean };

const parseInput = (args: string): unknown => {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {}; // never executed; the tool result tells the model its arguments were not a JSON object
  }
};

/**
 * Consecutive user items (tool results, then a subagent's report that arrived meanwhile)
 * become one user message, as the API expects turns to alternate; tool results first.
 */
function mergeUsers(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const merged: Anthropic.MessageParam[] = [];
  const blocks = (content: Anthropic.MessageParam['content']): Anthropic.ContentBlockParam[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);
  for (const message of messages) {
    const last = merged[merged.length - 1];
    if (last?.role === 'user' && message.role === 'user') merged[merged.length - 1] = { role: 'user', content: [...blocks(last.content), ...blocks(message.content)] };
    else merged.push(message);
  }
  return merged;
}

function toMessages(history: readonly HistoryItem[]): Anthropic.MessageParam[] {
  return mergeUsers(history.map((item): Anthropic.MessageParam => {
    if (item.role === 'user') return { role: 'user', content: item.text };
    if (item.role === 'tool') {
      return {
        role: 'user',
        content: item.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.callId,
          // Claude takes images in a tool result: after the text, as base64 blocks.
          content: r.images?.length ? [{ type: 'text' as const, text: r.output }, ...r.images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mimeType, data: image.data } }))] : r.output,
          is_error: r.isError,
        })),
      };
    }
    const content: Anthropic.ContentBlockParam[] = [...((item.opaque ?? []) as Anthropic.ContentBlockParam[])];
    if (item.text !== '') content.push({ type: 'text', text: item.text });
    for (const call of item.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
    return { role: 'assistant', content };
  }));
}

const STOP: Readonly<Record<string, StopReason>> = { end_turn: 'end_turn', tool_use: 'tool_use', max_tokens: 'max_tokens', stop_sequence: 'end_turn' };

export function anthropicClient(options: AnthropicOptions): ModelClient {
  const client = new Anthropic({ apiKey: options.apiKey, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}), maxRetries: 0 });
  return {
    provider: 'anthropic',
    model: options.model,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
      const tools = request.tools.map((t, i) => ({
        name: t.name,
        description: t.description,
        input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
        ...(i === request.tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
      }));
      const blocks = new Map<number, Block>();
      let usage: Usage = NO_USAGE;
      let stopReason: StopReason = 'cut_off';
      let finished = false;
      try {
        const stream = await client.messages.create(
          {
            model: options.model,
            max_tokens: request.maxTokens,
            system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
            tools,
            messages: toMessages(request.history),
            stream: true,
          },
          { signal },
        );
        for await (const event of stream) {
          switch (event.type) {
            case 'message_start': {
              const u = event.message.usage;
              usage = { inputTokens: u.input_tokens, outputTokens: u.output_tokens, cacheReadTokens: u.cache_read_input_tokens ?? 0, cacheWriteTokens: u.cache_creation_input_tokens ?? 0 };
              break;
            }
            case 'content_block_start': {
              const b = event.content_block as unknown as Record<string, unknown>;
              blocks.set(event.index, { type: String(b.type), id: b.id as string | undefined, name: b.name as string | undefined, text: '', json: '', raw: { ...b }, stopped: false });
              break;
            }
            case 'content_block_delta': {
              const block = blocks.get(event.index);
              const d = event.delta as unknown as Record<string, string>;
              if (!block) break;
              if (d.type === 'text_delta') {
                block.text += d.text ?? '';
                yield { type: 'text', delta: d.text ?? '' };
              } else if (d.type === 'input_json_delta') block.json += d.partial_json ?? '';
              else if (d.type === 'thinking_delta') block.raw.thinking = `${(block.raw.thinking as string | undefined) ?? ''}${d.thinking ?? ''}`;
              else if (d.type === 'signature_delta') block.raw.signature = d.signature;
              break;
            }
            case 'content_block_stop': {
              const block = blocks.get(event.index);
              if (!block) break;
              block.stopped = true;
              if (block.type === 'tool_use') yield { type: 'tool_call', call: { id: block.id!, name: block.name!, arguments: block.json || '{}' }, complete: true };
              break;
            }
            case 'message_delta':
              stopReason = STOP[event.delta.stop_reason ?? ''] ?? 'other';
              usage = { ...usage, outputTokens: event.usage.output_tokens };
              break;
            case 'message_stop':
              finished = true;
              break;
          }
        }
      } catch (error) {
        if (signal.aborted) throw new ModelError('cancelled', false);
        // A stream that breaks after it started is reported as cut off, with what arrived.
        if (blocks.size === 0) throw toModelError(error, 'anthropic', client.baseURL);
      }
      if (signal.aborted) throw new ModelError('cancelled', false); // the SDK may end the stream quietly on abort
      const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
      const calls: ToolCall[] = [];
      for (const b of ordered.filter((b) => b.type === 'tool_use')) {
        const call = { id: b.id!, name: b.name!, arguments: b.json || (b.stopped ? '{}' : '') };
        calls.push(call);
        if (!b.stopped) yield { type: 'tool_call', call, complete: false };
      }
      if (!finished) stopReason = 'cut_off';
      const opaque = ordered.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').map((b) => b.raw);
      yield {
        type: 'done',
        stopReason,
        usage,
        message: { role: 'assistant', text: ordered.filter((b) => b.type === 'text').map((b) => b.text).join(''), toolCalls: calls, ...(opaque.length > 0 ? { opaque } : {}) },
      };
    },
  };
}
