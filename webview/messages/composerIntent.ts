// What Enter in the composer does when it does not simply send (walkthrough #15), said
// before it is pressed: with an approval card waiting, the text becomes that card's deny
// message; while Peon works, it is queued for its next step.
import { MAX_MESSAGE_CHARS, type ApprovalCard } from '../../src/shared/messages';

/** A deny message's bound (the `answer` message's). */
const DENY_CHARS = 4000;

export interface ComposerIntent {
  readonly action: 'deny' | 'queue';
  readonly label: string;
  readonly hint: string;
  readonly max: number;
}

export function composerIntent(card: ApprovalCard | undefined, busy: boolean): ComposerIntent | undefined {
  if (card) return { action: 'deny', label: 'Deny', hint: `Enter denies the waiting ${card.tool} card, with your text as the reason Peon is given.`, max: DENY_CHARS };
  if (busy) return { action: 'queue', label: 'Queue', hint: 'Enter queues your message: Peon reads it at its next step.', max: MAX_MESSAGE_CHARS };
  return undefined;
}
