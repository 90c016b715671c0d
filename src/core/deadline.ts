// A signal that aborts when `parent` does or when `ms` have passed, with a TimeoutError
// reason as AbortSignal.timeout gives. Not AbortSignal.any([parent, AbortSignal.timeout(ms)]):
// Node 20's any() holds its sources weakly, so the timeout signal can be garbage
// collected before it fires and the deadline never comes (nodejs/node#57736) — a call
// that would hang instead of timing out. Here the timer holds the controller; `clear`
// ends both when the work is done.
export interface Deadline {
  readonly signal: AbortSignal;
  clear(): void;
}

export function deadline(parent: AbortSignal, ms: number): Deadline {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

/** A promise that rejects with the signal's reason as soon as it is aborted (for work that cannot be cancelled itself). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
