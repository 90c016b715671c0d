// One MCP request's cancellation, linked to the caller's signal. The SDK's
// Protocol.request adds an 'abort' listener to the signal it is given and never removes
// it, so a request cannot be given the caller's own (a long-lived turn's signal would
// gather one listener per call, and a later Stop would "cancel" requests long answered).
// An AbortController per request, linked and unlinked, cost about 10 µs of a ~60 µs stdio
// call (B16). Instead: what the SDK reads of a signal — `aborted`, `reason`,
// `throwIfAborted()`, `addEventListener('abort')` — as a plain object per request, and
// one listener per caller signal that aborts every request still linked to it.
// The SDK hands it to nothing else (not to fetch: a transport's send gets no signal).

type Listener = () => void;

export class RequestCancel {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Listener[] = [];

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: Listener): void {
    if (type !== 'abort') return;
    if (this.aborted) queueMicrotask(listener);
    else this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    if (type === 'abort') this.listeners = this.listeners.filter((l) => l !== listener);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** As the SDK's request options take it. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}

/** The requests in flight per caller signal; the signal's one listener aborts them all. */
const linked = new WeakMap<AbortSignal, Set<RequestCancel>>();

/** A request's cancellation, aborted when `signal` is; `done()` unlinks it once the request settled. */
export function linkRequest(signal: AbortSignal): { cancel: RequestCancel; done: () => void } {
  const cancel = new RequestCancel();
  if (signal.aborted) {
    cancel.abort(signal.reason);
    return { cancel, done: () => undefined };
  }
  let live = linked.get(signal);
  if (!live) {
    const requests = new Set<RequestCancel>();
    live = requests;
    linked.set(signal, requests);
    signal.addEventListener(
      'abort',
      () => {
        for (const request of requests) request.abort(signal.reason);
        requests.clear();
      },
      { once: true },
    );
  }
  live.add(cancel);
  const requests = live;
  return { cancel, done: () => requests.delete(cancel) };
}
