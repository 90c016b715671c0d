// The approval broker (DESIGN.md §5): each call that asks becomes a pending request
// keyed by id, answered by a promise, never by polling. Cancelling (Stop) resolves
// every pending request as denied; an answer for an id that is no longer pending (a
// late or forged click) changes nothing and says so.
import { randomUUID } from 'node:crypto';
import type { ApprovalReply, ApprovalRequest, Approver } from '../tools/session';

interface Pending {
  readonly request: ApprovalRequest;
  readonly settle: (reply: ApprovalReply) => void;
}

export interface BrokerEvents {
  /** A new request to show (a card). */
  readonly onRequest: (id: string, request: ApprovalRequest) => void;
  /** A request was answered or cancelled: its card goes. */
  readonly onSettled: (id: string, reply: ApprovalReply, how: 'answered' | 'cancelled') => void;
}

export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly events: BrokerEvents) {}

  /** The Approver a ToolSession takes: one pending request per call that asks. */
  readonly approve: Approver = (request, signal) =>
    new Promise<ApprovalReply>((resolve) => {
      const id = randomUUID();
      const cancel = (): void => void this.settle(id, { approved: false, message: 'The turn was stopped before anyone answered.' }, 'cancelled');
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

  /** Answers a pending request; false when `id` is not pending (the click is ignored). */
  answer(id: string, reply: ApprovalReply): boolean {
    return this.settle(id, reply, 'answered');
  }

  /** Resolves every pending request as denied (a new chat, the view closing). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { approved: false, message: 'The request was withdrawn.' }, 'cancelled');
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  requestOf(id: string): ApprovalRequest | undefined {
    return this.pending.get(id)?.request;
  }

  private settle(id: string, reply: ApprovalReply, how: 'answered' | 'cancelled'): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.settle(reply);
    this.events.onSettled(id, reply, how);
    return true;
  }
}
