// A call waiting for the person must not wait unseen: the Peon view's badge counts the
// pending approvals (VS Code shows it on the activity-bar icon), and a card that arrives
// while the panel is hidden also raises a notification whose Show opens the panel on it.
import * as vscode from 'vscode';
import type { ApprovalCard } from '../shared/messages';
import { cardTitle } from '../shared/approvalText';
import { cutText } from '../shared/format';
import { visibleText } from '../shared/hiddenText';

export interface AttentionFace {
  /** The chat view, once VS Code has resolved it. */
  view(): vscode.WebviewView | undefined;
  /** Shows the panel with the card (by id) focused, or the panel alone when none is pending. */
  reveal(id: string | undefined): void;
}

export class ApprovalAttention {
  /** One notification at a time: later cards are counted by the badge meanwhile. */
  private notifying = false;
  private pending: readonly ApprovalCard[] = [];

  constructor(private readonly face: AttentionFace) {}

  /** The pending cards changed; `added`: the card that just arrived. */
  update(pending: readonly ApprovalCard[], added?: ApprovalCard): void {
    this.pending = pending;
    const view = this.face.view();
    // A zero badge, not undefined: VS Code 1.99 leaves the last badge shown when it is set to undefined.
    if (view) view.badge = pending.length === 0 ? { value: 0, tooltip: '' } : { value: pending.length, tooltip: pending.length === 1 ? 'An approval is waiting for you' : `${pending.length} approvals are waiting for you` };
    if (added && !view?.visible && !this.notifying) void this.notify(added);
  }

  private async notify(card: ApprovalCard): Promise<void> {
    this.notifying = true;
    try {
      const who = card.agent ? ` (${card.agent})` : '';
      // A command is named as it would run (cut, its hidden characters made visible); anything else by the card's title.
      const what = card.summary.kind === 'command' ? `run ${cutText(visibleText(card.summary.command).replace(/\s+/g, ' '), 80)}` : cardTitle(card);
      const choice = await vscode.window.showInformationMessage(`Peon is waiting for your approval${who}: ${what}`, 'Show');
      if (choice === 'Show') this.face.reveal((this.pending.find((c) => c.id === card.id) ?? this.pending[0])?.id);
    } finally {
      this.notifying = false;
    }
  }
}
