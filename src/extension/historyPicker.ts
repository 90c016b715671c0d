import * as vscode from 'vscode';
import type { ChatViewProvider } from './chatViewProvider';

// Made when the picker opens, not at load: loading the bundle touches no VS Code API (PERF.md B12).
const deleteButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this conversation' });

/** "Peon: Show History": pick a saved conversation to continue; the trash button deletes one (after asking). */
export async function showHistory(chat: ChatViewProvider): Promise<void> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
  const refresh = (): void => {
    pick.items = chat.listSessions().map((s) => ({ id: s.id, label: s.title, description: new Date(s.updatedAt).toLocaleString(), buttons: [deleteButton()] }));
  };
  pick.title = 'Peon: conversations';
  pick.placeholder = 'Pick a conversation to continue';
  refresh();
  pick.onDidTriggerItemButton(async ({ item }) => {
    const answer = await vscode.window.showWarningMessage(`Delete the conversation "${item.label}"?`, { modal: true, detail: 'It cannot be restored.' }, 'Delete');
    if (answer === 'Delete') {
      chat.deleteSession(item.id);
      refresh();
    }
  });
  pick.onDidAccept(async () => {
    const chosen = pick.selectedItems[0];
    pick.hide();
    if (!chosen) return;
    chat.resume(chosen.id);
    await vscode.commands.executeCommand('peon.chatView.focus');
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
