// Approvals (DESIGN.md §5): what a call that asks puts to the person, what they answer,
// and the broker that turns each request into a pending card answered by id.
import { Broker, type BrokerEvents } from '../broker';
import type { Assessment } from '../tools/contract';
import type { PermissionDecision } from './gate';

export interface ApprovalRequest {
  readonly tool: string;
  readonly agent: string;
  /** A subagent's type (its card is labelled with its name and type). */
  readonly agentType?: string;
  /** The model's id for the call, when the caller gave one (the panel marks its card as waiting). */
  readonly callId?: string;
  readonly assessment: Assessment;
  readonly permission: PermissionDecision;
}

/**
 * A person's answer. `scope`: this call only (default), the rest of this session (the
 * call's `grantable` patterns, or a plan's grants), or always (the host also writes a
 * user-settings rule).
 */
export type ApprovalReply =
  /** `edited`: the person's own version of a file change's proposal, written instead of it. */
  | { readonly approved: true; readonly scope?: 'once' | 'session' | 'always'; readonly edited?: string }
  | { readonly approved: false; readonly message?: string };
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalReply>;

export class ApprovalBroker extends Broker<ApprovalRequest, ApprovalReply> {
  constructor(events: BrokerEvents<ApprovalRequest, ApprovalReply>) {
    super(events, (why) => ({ approved: false, message: why === 'stopped' ? 'The turn was stopped before anyone answered.' : 'The request was withdrawn.' }));
  }

  /** The Approver a conversation takes: one pending request per call that asks. */
  readonly approve: Approver = (request, signal) => this.request(request, signal);
}
