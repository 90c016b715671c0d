// Requests put to a person (an approval card, a question modal): each pending request is
// keyed by id and answered by a promise, never by polling. Cancelling (Stop) settles
// every pending request with the `cancelled` reply; an answer for an id that is no longer
// pending (a late or forged click) changes nothing and says so.
import { randomUUID } from 'node:crypto';

export interface BrokerEvents<Request, Reply> {
  /** A new request to show (a card, a modal). */
  readonly onRequest: (id: string, request: Request) => void;
  /** A request was answered or cancelled: what showed it goes. */
  readonly onSettled: (id: string, reply: Reply, how: 'answered' | 'cancelled') => void;
}

interface Pending<Request, Reply> {
  readonly request: Request;
  readonly settle: (reply: Reply) => void;
}

export class Broker<Request, Reply> {
  private readonly pending = new Map<string, Pending<Request, Reply>>();

  constructor(
    private readonly events: BrokerEvents<Request, Reply>,
    /** The reply a request gets when the turn is stopped, or everything is withdrawn. */
    private readonly cancelled: (why: 'stopped' | 'withdrawn') => Reply,
  ) {}

  /** One pending request until it is answered or `signal` aborts. */
  request(request: Request, signal: AbortSignal): Promise<Reply> {
    return new Promise<Reply>((resolve) => {
      const id = randomUUID();
      const cancel = (): void => void this.settle(id, this.cancelled('stopped'), 'cancelled');
      this.pending.set(id, {
        request,
        settle: (reply) => {
          signal.removeEventListener('abort', cancel);
          resolve(reply);
        },
      });
      if (signal.aborted) return cancel();
      signal.addEventListener('abort', cancel, { once: true });
      this.events.onRequest(id, request);
    });
  }

  /** Answers a pending request; false when `id` is not pending (the click is ignored). */
  answer(id: string, reply: Reply): boolean {
    return this.settle(id, reply, 'answered');
  }

  /** Settles every pending request as withdrawn (a new chat, the view closing). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, this.cancelled('withdrawn'), 'cancelled');
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  requestOf(id: string): Request | undefined {
    return this.pending.get(id)?.request;
  }

  /** Every pending request, oldest first (shown again when the view reloads). */
  entries(): [string, Request][] {
    return [...this.pending].map(([id, p]) => [id, p.request]);
  }

  private settle(id: string, reply: Reply, how: 'answered' | 'cancelled'): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.settle(reply);
    this.events.onSettled(id, reply, how);
    return true;
  }
}
