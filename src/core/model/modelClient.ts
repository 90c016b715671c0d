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

/** A failure the person can act on: the key was refused (Set API Key), or the server could not be reached (its URL, Retry). */
export type ModelFailure = 'auth' | 'unreachable';

export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** From a `retry-after` header, when the server sent one. */
    readonly retryAfterMs?: number,
    readonly failure?: ModelFailure,
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

/**
 * What the server said, once: the error body's message where the SDK kept it (Anthropic's
 * own message is that body as JSON), else the SDK's message without the status it starts with.
 */
function detailOf(error: unknown, message: string, status: number): string {
  const body = (error as { error?: { message?: unknown; error?: { message?: unknown } } }).error;
  const said = body?.error?.message ?? body?.message;
  if (typeof said === 'string' && said.trim() !== '') return said.trim();
  return message.replace(new RegExp(`^${status}\\s+`), '').trim() || `HTTP ${status}`;
}

/** Why a connection failed, from the error's causes: `ECONNREFUSED` as "connection refused", else the innermost cause's words ("bad port"). */
function networkReason(error: unknown): string | undefined {
  const words: Readonly<Record<string, string>> = { ECONNREFUSED: 'connection refused', ENOTFOUND: 'host not found', EAI_AGAIN: 'host not found', ETIMEDOUT: 'timed out', ECONNRESET: 'connection reset', EHOSTUNREACH: 'host unreachable', ENETUNREACH: 'network unreachable' };
  let innermost: string | undefined;
  for (let cause = (error as { cause?: unknown }).cause, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && words[code]) return words[code];
    if (cause instanceof Error && cause.message) innermost = cause.message;
  }
  return innermost === 'fetch failed' ? undefined : innermost;
}

/**
 * Maps an SDK or network failure to a ModelError: 429, 5xx and connection failures are
 * retryable. `url` is where the request went: a connection failure names it (a mistyped
 * base URL is the usual cause); 401 and 403 are auth failures.
 */
export function toModelError(error: unknown, provider: string, url?: string): ModelError {
  if (error instanceof ModelError) return error;
  const status = (error as { status?: unknown }).status;
  const headers = (error as { headers?: { get?(name: string): string | null } | Record<string, string> }).headers;
  const header = typeof headers?.get === 'function' ? headers.get('retry-after') : (headers as Record<string, string> | undefined)?.['retry-after'];
  const seconds = header === null || header === undefined ? undefined : Number(header);
  const retryAfterMs = seconds !== undefined && Number.isFinite(seconds) ? seconds * 1000 : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number') {
    const retryable = status === 429 || status === 408 || status >= 500;
    const auth = status === 401 || status === 403;
    return new ModelError(`${provider} answered ${status}: ${detailOf(error, message, status)}`, retryable, status, retryAfterMs, auth ? 'auth' : undefined);
  }
  if ((error as { name?: string }).name === 'AbortError' || (error as { name?: string }).name === 'APIUserAbortError') {
    return new ModelError(`${provider} request cancelled`, false);
  }
  const reason = networkReason(error) ?? message.replace(/\.$/, '');
  return new ModelError(`${provider} could not be reached${url ? ` at ${url}` : ''}: ${reason}.`, true, undefined, undefined, 'unreachable');
}
