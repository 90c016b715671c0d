// What a code block's buttons in the panel do (webview/markdown/CodeBlock.svelte): Copy
// puts its text on the clipboard, Insert at Cursor puts it into the active text editor.
// The webview only hands over the text; which editor, and whether it can be written, is
// decided here.
import * as vscode from 'vscode';

export async function copyText(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
}

/** Replaces each selection of the active text editor with `text` (inserts at each cursor) and focuses it. */
export async function insertAtCursor(text: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Insert at Cursor: no editor is open.');
    return;
  }
  const inserted = await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, text);
  });
  if (!inserted) {
    void vscode.window.showWarningMessage(`Insert at Cursor: ${vscode.workspace.asRelativePath(editor.document.uri)} cannot be edited.`);
    return;
  }
  await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
}
