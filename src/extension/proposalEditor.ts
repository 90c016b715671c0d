// "Open diff" on a file-change card (DESIGN.md §7): VS Code's diff editor with the file
// as it is on the left and Peon's proposal on the right, opened without taking focus. The
// proposal is served from memory under the file's own path (proposalFileSystem.ts), so
// the tab and the breadcrumb name the file; the person may edit it (a save keeps their
// version in memory, never in the file), and what it holds when they approve, saved or
// not, is what gets written. Accept and Reject sit in the editor's title bar
// (package.json, editor/title); the card follows the person's edits (onEdited).
import * as vscode from 'vscode';
import type { Proposal } from '../core/tools/contract';
import { PROPOSAL_SCHEME, ProposalFileSystem, proposalIdOf, proposalUri } from './proposalFileSystem';

const BOM = '\uFEFF';
const withoutBom = (text: string): string => (text.startsWith(BOM) ? text.slice(1) : text);

/** How long typing in the proposal may go on before the card shows the edited diff. */
const EDIT_SETTLE_MS = 150;

interface Open {
  readonly proposal: Proposal;
  readonly right: vscode.Uri;
  /** A new file's empty original, served from memory too. */
  readonly empty: vscode.Uri | undefined;
  /** The person's version as last reported; undefined: the proposal as Peon made it. */
  reported: string | undefined;
  timer?: ReturnType<typeof setTimeout>;
}

/** The scheme is the extension host's: one file system serves every proposal, registered while any is open. */
let served: ProposalFileSystem | undefined;
let registration: vscode.Disposable | undefined;

/** Made on first use: the bundle loads before VS Code's API is asked for anything (PERF.md B12). */
function proposals(): ProposalFileSystem {
  return (served ??= new ProposalFileSystem());
}

export class ProposalEditor implements vscode.Disposable {
  private readonly open = new Map<string, Open>();
  private readonly listeners: vscode.Disposable[];

  /** `onEdited`: the person changed the proposal (their text) or changed it back (undefined). */
  constructor(private readonly onEdited: (id: string, text: string | undefined) => void = () => {}) {
    this.listeners = [vscode.workspace.onDidChangeTextDocument((event) => this.changed(event.document.uri)), vscode.workspace.onDidCloseTextDocument((document) => this.changed(document.uri))];
  }

  async show(id: string, proposal: Proposal): Promise<void> {
    let entry = this.open.get(id);
    if (!entry) {
      registration ??= vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, proposals(), { isCaseSensitive: true });
      const right = proposalUri(id, proposal.path.display, 'proposal');
      proposals().put(right, proposal.content);
      const empty = proposal.currentSha256 === undefined ? proposalUri(id, proposal.path.display, 'empty') : undefined;
      if (empty) proposals().put(empty, '', true);
      entry = { proposal, right, empty, reported: undefined };
      this.open.set(id, entry);
    }
    const left = entry.empty ?? vscode.Uri.file(proposal.path.canonical);
    const name = proposal.path.display.split(/[\\/]/).pop() || proposal.path.display;
    const title = `${name}${entry.empty ? ' (new file)' : ''} ↔ Peon's proposal`;
    await vscode.commands.executeCommand('vscode.diff', left, entry.right, title, { preserveFocus: true, preview: false });
  }

  /** The approval whose proposal `target` is (a URI VS Code passed to a command), or the one in the active editor. */
  idOf(target?: unknown): string | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const active = input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
    const id = proposalIdOf(target) ?? proposalIdOf(active);
    return id !== undefined && this.open.has(id) ? id : undefined;
  }

  /** The person's version, when they changed the proposal; undefined when it is untouched or was never opened. */
  async editedText(id: string): Promise<string | undefined> {
    const entry = this.open.get(id);
    if (!entry) return undefined;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    const shown = document ? document.getText() : proposals().text(entry.right);
    if (shown === undefined) return undefined;
    // The editor shows a UTF-8 BOM as the document's encoding, not as text: compared
    // without it, and an edited version keeps the proposal's.
    const bom = entry.proposal.content.startsWith(BOM);
    const text = withoutBom(shown);
    const proposed = withoutBom(entry.proposal.content);
    // The editor keeps one line ending per document: a proposal with mixed endings comes
    // back normalised, which is not an edit.
    const eol = document?.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    if (text === proposed || text === proposed.replace(/\r\n|\r|\n/g, eol)) return undefined;
    return bom ? BOM + text : text;
  }

  /** Closes the diff (saving the proposal into memory first, so nothing prompts) and forgets the proposal. */
  async close(id: string): Promise<void> {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    clearTimeout(entry.timer);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    if (document?.isDirty) await document.save();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === entry.right.toString());
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    proposals().remove(entry.right);
    if (entry.empty) proposals().remove(entry.empty);
    if (proposals().size === 0) {
      registration?.dispose();
      registration = undefined;
    }
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.open.keys()]) await this.close(id);
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    void this.closeAll();
  }

  /** A proposal's text changed (typing, undo, a revert) or its document closed: the card hears of it once the typing settles. */
  private changed(uri: vscode.Uri): void {
    const id = proposalIdOf(uri);
    const entry = id === undefined ? undefined : this.open.get(id);
    if (!id || !entry || uri.toString() !== entry.right.toString()) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.report(id, entry), EDIT_SETTLE_MS);
  }

  private async report(id: string, entry: Open): Promise<void> {
    const text = await this.editedText(id);
    if (this.open.get(id) !== entry || text === entry.reported) return;
    entry.reported = text;
    this.onEdited(id, text);
  }
}
