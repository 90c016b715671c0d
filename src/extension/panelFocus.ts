// Where the cursor goes when a command shows the panel (Focus Chat, New Chat, a waiting
// card's notification): focusing the view only focuses its page, so the page is told to
// put the cursor in the composer or on the card. A hidden view's page is gone and loads
// again when shown: the request then waits for its `ready`.
import * as vscode from 'vscode';
import type { HostMessage } from '../shared/messages';

type FocusMessage = Extract<HostMessage, { type: 'focus' }>;

export class PanelFocus {
  /** The page has said `ready` and has not been hidden since. */
  private live = false;
  private wanted: FocusMessage | undefined;

  constructor(private readonly post: (message: HostMessage) => void) {}

  /** A view resolved: its page is not live until it says `ready`; hidden, its page goes. */
  attach(view: vscode.WebviewView): void {
    this.live = false;
    const visibility = view.onDidChangeVisibility(() => {
      if (!view.visible) this.live = false;
    });
    view.onDidDispose(() => visibility.dispose());
  }

  /** The page (re)loaded and has its conversation: a focus asked for meanwhile is given now. */
  ready(): void {
    this.live = true;
    if (this.wanted) this.post(this.wanted);
    this.wanted = undefined;
  }

  /** Shows the panel and puts the cursor on `target`. */
  async show(target: { target: 'composer' } | { target: 'approval'; id: string }): Promise<void> {
    this.wanted = { type: 'focus', ...target };
    await vscode.commands.executeCommand('peon.chatView.focus');
    if (!this.live || !this.wanted) return;
    this.post(this.wanted);
    this.wanted = undefined;
  }
}
