// "Open diff" on a file-change card (DESIGN.md §7): VS Code's diff editor with the file
// as it is on the left and the proposal on the right, opened without taking focus. The
// right side is a scratch file in Peon's storage, so the person can edit it; when they
// approve, what it holds then (saved or not) is what gets written.
import * as vscode from 'vscode';
import type { Proposal } from '../core/tools/contract';

interface Open {
  readonly proposal: Proposal;
  readonly right: vscode.Uri;
  readonly dir: vscode.Uri;
}

export class ProposalEditor {
  private readonly open = new Map<string, Open>();

  constructor(private readonly storageUri: vscode.Uri) {}

  async show(id: string, proposal: Proposal): Promise<void> {
    let entry = this.open.get(id);
    if (!entry) {
      const dir = vscode.Uri.joinPath(this.storageUri, 'proposals', id);
      const name = proposal.path.display.split('/').pop() || 'proposal';
      const right = vscode.Uri.joinPath(dir, name);
      await vscode.workspace.fs.writeFile(right, Buffer.from(proposal.content, 'utf8'));
      entry = { proposal, right, dir };
      this.open.set(id, entry);
    }
    let left = vscode.Uri.file(proposal.path.canonical);
    if (proposal.currentSha256 === undefined) {
      left = vscode.Uri.joinPath(entry.dir, 'empty');
      await vscode.workspace.fs.writeFile(left, new Uint8Array());
    }
    const title = `${proposal.path.display}: current ↔ Peon's proposal (edit the right side, then approve)`;
    await vscode.commands.executeCommand('vscode.diff', left, entry.right, title, { preserveFocus: true, preview: false });
  }

  /** The person's version, when they changed the proposal; undefined when it is untouched or was never opened. */
  async editedText(id: string): Promise<string | undefined> {
    const entry = this.open.get(id);
    if (!entry) return undefined;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    const text = document ? document.getText() : Buffer.from(await vscode.workspace.fs.readFile(entry.right)).toString('utf8');
    if (text === entry.proposal.content) return undefined;
    // The editor keeps one line ending per document: a proposal with mixed endings comes
    // back normalised, which is not an edit.
    const eol = document?.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    return text === entry.proposal.content.replace(/\r\n|\r|\n/g, eol) ? undefined : text;
  }

  /** Closes the diff (saving the scratch side first, so nothing prompts) and removes the scratch files. */
  async close(id: string): Promise<void> {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    if (document?.isDirty) await document.save();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === entry.right.toString());
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    await vscode.workspace.fs.delete(entry.dir, { recursive: true, useTrash: false });
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.open.keys()]) await this.close(id);
  }
}
