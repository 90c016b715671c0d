// Model requests retried with exponential backoff and jitter on 429, 5xx and connection
// failures, honouring retry-after, cancellable at every moment; a stream that goes
// silent for too long is aborted and retried, never awaited forever.
import { ModelError, type ModelClient, type ModelEvent, type ModelRequest } from '../model/modelClient';

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseMs: number;
  readonly maxMs: number;
  /** No event for this long: the attempt is abandoned (and retried). */
  readonly idleMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 1000, maxMs: 30_000, idleMs: 120_000 };

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ModelError('cancelled', false));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ModelError('cancelled', false));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function* streamWithRetry(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  policy: Partial<RetryPolicy> = {},
  onRetry: (retry: { attempt: number; delayMs: number; error: string }) => void = () => {},
): AsyncIterable<ModelEvent> {
  const { attempts, baseMs, maxMs, idleMs } = { ...DEFAULT_RETRY, ...policy };
  for (let attempt = 1; ; attempt++) {
    const attemptController = new AbortController();
    const attemptSignal = AbortSignal.any([signal, attemptController.signal]);
    let idle: NodeJS.Timeout | undefined;
    let stalled = false;
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        attemptController.abort();
      }, idleMs);
    };
    let emitted = false;
    try {
      arm();
      for await (const event of client.stream(request, attemptSignal)) {
        arm();
        emitted = true;
        yield event;
      }
      return;
    } catch (error) {
      if (signal.aborted) throw new ModelError('cancelled', false);
      const failure = stalled ? new ModelError(`${client.provider} sent nothing for ${Math.round(idleMs / 1000)} s`, true) : error instanceof ModelError ? error : new ModelError(String(error), true);
      // Output already shown cannot be taken back: only a failure before any event is retried.
      if (!failure.retryable || emitted || attempt >= attempts) throw failure;
      const backoff = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
      const delayMs = failure.retryAfterMs ?? Math.round(backoff * (0.5 + Math.random() * 0.5));
      onRetry({ attempt, delayMs, error: failure.message });
      await sleep(delayMs, signal);
    } finally {
      clearTimeout(idle);
    }
  }
}
