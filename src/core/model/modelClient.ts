// One small interface for every model API (DESIGN.md §6): a request of history and
// tools in, a stream of events out: text deltas, complete tool calls (or calls cut off
// mid-stream, flagged so they are never run), usage, and the finished assistant message
// to append to history. Errors are typed: retryable or not.
import type { ToolImage } from '../tools/contract';

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments exactly as the model streamed them (JSON text, maybe invalid). */
  readonly arguments: string;
}

export type HistoryItem =
  | { readonly role: 'user'; readonly text: string }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly toolCalls: readonly ToolCall[];
      /** Provider blocks that must go back unchanged (Anthropic thinking blocks with their signatures). */
      readonly opaque?: readonly unknown[];
    }
  | { readonly role: 'tool'; readonly results: readonly ToolResultItem[] };

/** One call's result as the model gets it: text, and the images a tool returned (a client that cannot send them says so). */
export interface ToolResultItem {
  readonly callId: string;
  readonly output: string;
  readonly isError: boolean;
  readonly images?: readonly ToolImage[];
}

/** What a client that sends text only appends for a result's images. */
export const imagesNotSent = (r: ToolResultItem): string => (r.images?.length ? `\n[${r.images.length} image${r.images.length === 1 ? '' : 's'} not passed on: this model API gets text only from Peon]` : '');

export interface ModelRequest {
  readonly system: string;
  readonly history: readonly HistoryItem[];
  readonly tools: readonly ToolSpec[];
  readonly maxTokens: number;
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Tokens read from the provider's prompt cache (counted once, not again as input). */
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'cut_off' | 'other';

export type ModelEvent =
  | { readonly type: 'text'; readonly delta: string }
  /** `complete: false`: the stream ended inside this call; it must never be executed. */
  | { readonly type: 'tool_call'; readonly call: ToolCall; readonly complete: boolean }
  | { readonly type: 'done'; readonly stopReason: StopReason; readonly usage: Usage; readonly message: Extract<HistoryItem, { role: 'assistant' }> };

export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** From a `retry-after` header, when the server sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface ModelClient {
  readonly provider: string;
  readonly model: string;
  /** The context window when the API reports it (VS Code's models do); else modelInfo's table. */
  readonly contextWindow?: number;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export const addUsage = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
});

/** Maps an SDK or network failure to a ModelError: 429, 5xx and connection failures are retryable. */
export function toModelError(error: unknown, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  const status = (error as { status?: unknown }).status;
  const headers = (error as { headers?: { get?(name: string): string | null } | Record<string, string> }).headers;
  const header = typeof headers?.get === 'function' ? headers.get('retry-after') : (headers as Record<string, string> | undefined)?.['retry-after'];
  const seconds = header === null || header === undefined ? undefined : Number(header);
  const retryAfterMs = seconds !== undefined && Number.isFinite(seconds) ? seconds * 1000 : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number') {
    const retryable = status === 429 || status === 408 || status >= 500;
    return new ModelError(`${provider} answered ${status}: ${message}`, retryable, status, retryAfterMs);
  }
  if ((error as { name?: string }).name === 'AbortError' || (error as { name?: string }).name === 'APIUserAbortError') {
    return new ModelError(`${provider} request cancelled`, false);
  }
  return new ModelError(`${provider} could not be reached: ${message}`, true);
}
