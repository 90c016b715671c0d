// VS Code's side of the panel's history (panelHistory.ts): the modal that asks before a
// chat is deleted, the save dialog of an export; and the trash's
// question before a deleted file comes back beside one that exists again.
import * as vscode from 'vscode';
import { visibleText } from '../shared/hiddenText';
import type { HistoryFace } from './panelHistory';
import type { TrashFace } from './panelTrash';

export function historyFace(log: vscode.LogOutputChannel): HistoryFace {
  return {
    warn: (text) => log.warn(text),
    async confirmDelete(title) {
      const answer = await vscode.window.showWarningMessage(`Delete the chat "${visibleText(title)}"?`, { modal: true, detail: 'Its messages and what its subagents did are removed; it cannot be restored.' }, 'Delete');
      return answer === 'Delete';
    },
    async saveMarkdown(name, markdown) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        title: 'Export the chat as Markdown',
        saveLabel: 'Export',
        filters: { Markdown: ['md'] },
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      });
      if (!target) return undefined;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
      void vscode.window.showInformationMessage(`Exported the chat to ${vscode.workspace.asRelativePath(target)}.`, 'Open').then((choice) => {
        if (choice === 'Open') void vscode.window.showTextDocument(target, { preview: true });
      });
      return target.toString();
    },
  };
}

export function trashFace(log: vscode.LogOutputChannel): TrashFace {
  return {
    shown: (file) => vscode.workspace.asRelativePath(file, false),
    warn: (text) => log.warn(text),
    async confirmBeside(original, beside) {
      const shown = vscode.workspace.asRelativePath(original, false);
      const name = beside.slice(beside.lastIndexOf('/') + 1);
      const answer = await vscode.window.showWarningMessage(
        `${shown} exists again. Restore the deleted copy beside it, as ${name}?`,
        { modal: true, detail: 'The file there now is left as it is; nothing is overwritten.' },
        'Restore Beside It',
      );
      return answer === 'Restore Beside It';
    },
  };
}
