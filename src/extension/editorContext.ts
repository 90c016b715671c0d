// The editor's side of context chips (DESIGN.md §7): Add Selection to Chat, Explain
// Selection, Fix Problems in File and the "Fix with Peon" Quick Fix, and what the active
// editor offers as a chip. Loaded with activation (the Quick Fix is registered there), so
// it stays small: the chips are read and built in the panel's bundle (contextBlock.ts).
import * as vscode from 'vscode';
import type { ContextChip, EditorChip } from '../shared/contextChips';
import { secretReasons } from '../core/workspace/pathRules';
import { visibleText } from '../shared/hiddenText';
import { problemsFor } from './diagnostics';
import { workspaceFile, workspaceRelative } from './workspaceFile';

/** What the editor commands need of the chat. */
export interface EditorChat {
  /** A chip for the next message (shown above the composer). */
  addContext(chips: readonly ContextChip[]): void;
  /** A message sent now, with these chips. */
  sendWithContext(text: string, chips: readonly ContextChip[]): void;
  /** Shows the panel, the focus staying where it is. */
  reveal(): Promise<void>;
}

const folders = (): { name: string; root: string }[] => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, root: f.uri.fsPath }));

/** How the chat names a document: its workspace path; undefined for an untitled one, another scheme, or a file outside the workspace. */
export function documentPath(document: vscode.TextDocument): string | undefined {
  if (document.uri.scheme !== 'file') return undefined;
  const canonical = workspaceFile(document.uri.fsPath, folders());
  return canonical ? workspaceRelative(canonical, folders()) : undefined;
}

/** A range's lines, 1-based: one that ends at the start of a line does not take that line. */
export function rangeLines(range: vscode.Range): [number, number] {
  const end = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return [range.start.line + 1, end];
}

let made = 0;
/** A chip's id (the webview keys the row by it). */
export const chipId = (): string => `c${Date.now().toString(36)}-${(made++).toString(36)}`;

/**
 * The active editor as a chip: its selection, else the lines in view. None for a file
 * outside the workspace or one that looks secret (.env, keys): what rides along unasked
 * must never be a credential.
 */
export function activeEditorChip(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): EditorChip | null {
  const path = editor ? documentPath(editor.document) : undefined;
  if (!editor || !path || secretReasons(path.split('/')).length > 0) return null;
  const selected = !editor.selection.isEmpty;
  const visible = editor.visibleRanges[0];
  const [startLine, endLine] = selected ? rangeLines(editor.selection) : visible ? rangeLines(visible) : [1, 1];
  return { kind: 'editor', id: 'editor', path, startLine, endLine, selected };
}

const tell = (text: string): void => void vscode.window.showInformationMessage(text);

/** The editor's selections as chips (a file chip when nothing is selected); undefined after saying why there are none. */
function selectionChips(what: string): ContextChip[] | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return tell(`Open a file and select lines to ${what}.`), undefined;
  const path = documentPath(editor.document);
  if (!path) return tell(`Peon can only ${what} from a file of this workspace.`), undefined;
  const ranges = editor.selections.filter((s) => !s.isEmpty).map(rangeLines);
  if (ranges.length === 0) return [{ kind: 'file', id: chipId(), path }];
  return ranges.map(([startLine, endLine]) => ({ kind: 'selection', id: chipId(), path, startLine, endLine }));
}

/** The commands' work; `chat` is made on first use (the panel's bundle loads then). */
export function editorActions(chat: () => EditorChat) {
  return {
    async addSelection(): Promise<void> {
      const chips = selectionChips('add them to the chat');
      if (!chips) return;
      await chat().reveal();
      chat().addContext(chips);
    },
    async explainSelection(): Promise<void> {
      const chips = selectionChips('explain them');
      if (!chips) return;
      if (chips.some((c) => c.kind === 'file')) return tell('Select the lines to explain first.');
      const [first] = chips;
      // The message is the person's, shown as text: a name's hidden characters are written out.
      const name = visibleText(first?.path ?? '');
      const where = first?.kind === 'selection' ? `${name} (line${first.startLine === first.endLine ? ` ${first.startLine}` : `s ${first.startLine}–${first.endLine}`})` : '';
      await chat().reveal();
      chat().sendWithContext(chips.length === 1 ? `Explain what the selected code in ${where} does.` : `Explain what the ${chips.length} selected parts of ${name} do.`, chips);
    },
    /** `uri` and lines: from the Quick Fix (one problem) or the editor's context menu; else the active editor's file. */
    async fixProblems(uri?: unknown, startLine?: unknown, endLine?: unknown): Promise<void> {
      const document = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document) return tell('Open a file with problems to fix.');
      const path = documentPath(document);
      if (!path) return tell('Peon can only fix files of this workspace.');
      const lines = typeof startLine === 'number' && typeof endLine === 'number' ? { startLine, endLine } : undefined;
      const problems = problemsFor(document.uri.fsPath).filter((p) => !lines || (p.endLine >= lines.startLine && p.startLine <= lines.endLine));
      if (problems.length === 0) return tell(`VS Code reports no problems in ${path}${lines ? ` at line ${lines.startLine}` : ''}.`);
      const chip: ContextChip = { kind: 'problems', id: chipId(), path, ...lines };
      const one = problems.length === 1 ? problems[0] : undefined;
      const name = visibleText(path);
      const text = lines && one ? `Fix this problem VS Code reports in ${name}: ${visibleText(one.text).slice(0, 500)}` : `Fix the ${problems.length === 1 ? 'problem' : `${problems.length} problems`} VS Code reports in ${name}.`;
      await chat().reveal();
      chat().sendWithContext(text, [chip]);
    },
  };
}

/** "Fix with Peon" on the editor's problems: the same fix as Fix Problems in File, for the problems at hand. */
export class FixWithPeon implements vscode.CodeActionProvider {
  /** Read at registration, not when the bundle loads (PERF.md B12 loads it without VS Code). */
  static get metadata(): vscode.CodeActionProviderMetadata {
    return { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.diagnostics.length === 0 || document.uri.scheme !== 'file') return [];
    if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix) && !vscode.CodeActionKind.QuickFix.contains(context.only)) return [];
    const lines = context.diagnostics.map((d) => rangeLines(d.range));
    const startLine = Math.min(...lines.map(([s]) => s));
    const endLine = Math.max(...lines.map(([, e]) => e));
    const action = new vscode.CodeAction('Fix with Peon', vscode.CodeActionKind.QuickFix);
    action.diagnostics = [...context.diagnostics];
    action.command = { command: 'peon.fixProblems', title: 'Fix with Peon', arguments: [document.uri, startLine, endLine] };
    return [action];
  }
}
