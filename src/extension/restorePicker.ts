// "Peon: Restore Files to an Earlier Message…" (DESIGN.md §10): pick one of your messages
// in the chat; every step Peon took after it is reverted, newest first, and a file
// changed since is asked about on the panel's card. Editing and resending a message
// offers the same (offerRestore).
import * as vscode from 'vscode';
import type { TranscriptEntry } from '../shared/messages';
import type { PanelCheckpoints } from './panelCheckpoints';

const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;

export async function pickRestorePoint(chat: { readonly checkpoints: PanelCheckpoints; readonly entries: readonly TranscriptEntry[] }): Promise<void> {
  const items = chat.entries
    .filter((e): e is Extract<TranscriptEntry, { kind: 'user' }> => e.kind === 'user')
    .map((e) => ({ id: e.id, label: e.text.replace(/\s+/g, ' ').slice(0, 120), count: chat.checkpoints.filesSince(e.id) }))
    .filter((e) => e.count > 0)
    .reverse()
    .map((e) => ({ id: e.id, label: e.label, description: `${files(e.count)} changed since` }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Peon changed no files after any message of this chat that are not reverted already.');
    return;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'Peon: restore files to before a message', placeHolder: 'The files go back to how they were when you sent it' });
  if (picked) await chat.checkpoints.restoreToMessage(picked.id);
}

/**
 * Edit and resend: when steps after message `entryId` changed files, asks whether to put
 * them back first. Resolves once answered (and, for Restore Files, once restored; a file
 * changed since waits on the panel's card). 'none': there was nothing to restore.
 */
export async function offerRestore(checkpoints: PanelCheckpoints, entryId: string): Promise<'none' | 'restored' | 'kept' | 'cancelled'> {
  const count = checkpoints.filesSince(entryId);
  if (count === 0) return 'none';
  const answer = await vscode.window.showWarningMessage(
    `Restore the files Peon changed after this message?`,
    { modal: true, detail: `${files(count)} changed since. Restoring reverts Peon's steps after the message, newest first; a file changed since then by you is asked about first.` },
    'Restore Files',
    'Keep Files',
  );
  if (answer === 'Restore Files') {
    await checkpoints.restoreToMessage(entryId);
    return 'restored';
  }
  return answer === 'Keep Files' ? 'kept' : 'cancelled';
}
