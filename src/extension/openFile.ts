// A file named in the panel opened in the editor, at a line: only a workspace file
// (workspaceFile.ts decides which file a name means).
import * as vscode from 'vscode';
import { workspaceFile } from './workspaceFile';

/** Opens `name` at `line` (1-based); says so in the log when it is not a workspace file. */
export async function openWorkspaceFile(name: string, line: number | undefined, warn: (text: string) => void): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, root: f.uri.fsPath }));
  const file = workspaceFile(name, folders);
  if (!file) {
    warn(`Not opened: ${JSON.stringify(name.slice(0, 300))} is not a file in this workspace.`);
    return;
  }
  const at = line !== undefined ? new vscode.Position(line - 1, 0) : undefined;
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
}
