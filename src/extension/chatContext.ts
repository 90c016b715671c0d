// The chat's context chips, host side: the chips waiting for the next message (kept
// here, so a webview reloaded while the panel was hidden shows them again), the active
// editor's chip as the person moves around, the `@` picker's search over the
// workspace's files and folders (the tools' walk, .gitignore and .peonignore applied),
// and the context block a message is sent with (contextBlock.ts).
import * as vscode from 'vscode';
import { walkFiles } from '../core/search/walk';
import { IgnoreRules } from '../core/workspace/ignoreRules';
import { rankMatches } from '../shared/fuzzyMatch';
import { MAX_CHIPS, sameChip, type ContextChip, type EditorChip, type FileMatch, type HostMessage } from '../shared/messages';
import { buildContext, type BuiltContext } from './contextBlock';
import { problemsFor } from './diagnostics';
import { activeEditorChip } from './editorContext';
import { workspaceFile, workspaceFolder } from './workspaceFile';

/** How many files and folders the `@` picker searches, at most (a larger workspace: the first ones walked). */
const MAX_LISTED = 100_000;
/** How many entries one answer carries. */
const MAX_MATCHES = 50;

export class ChatContext implements vscode.Disposable {
  private pending: ContextChip[] = [];
  private active: EditorChip | null = null;
  private listing: Promise<FileMatch[]> | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly warn: (text: string) => void,
  ) {
    // The active editor's chip follows the person: another file, a new selection, scrolling (at most every 150 ms).
    const follow = (): void => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.followEditor(), 150);
    };
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(follow),
      vscode.window.onDidChangeTextEditorSelection((e) => e.textEditor === vscode.window.activeTextEditor && follow()),
      vscode.window.onDidChangeTextEditorVisibleRanges((e) => e.textEditor === vscode.window.activeTextEditor && follow()),
    );
    this.active = activeEditorChip();
  }

  /** Everything the webview shows of the chips: on `ready`, after a reload. */
  postAll(): void {
    this.active = activeEditorChip();
    this.post({ type: 'context', chips: this.pending });
    this.post({ type: 'activeEditor', chip: this.active });
  }

  /** Chips for the next message (an editor command, the `@` picker): each must name a workspace file or folder; one already there is not added twice. */
  add(chips: readonly ContextChip[]): void {
    const folders = workspaceFolders();
    for (const chip of chips) {
      const known = chip.kind === 'folder' ? workspaceFolder(chip.path, folders) : workspaceFile(chip.path, folders);
      if (!known) {
        this.warn(`Not attached: ${JSON.stringify(chip.path.slice(0, 300))} is not a ${chip.kind === 'folder' ? 'folder' : 'file'} of this workspace.`);
        continue;
      }
      if (chip.kind === 'editor' || this.pending.some((p) => p.id === chip.id || sameChip(p, chip))) continue;
      if (this.pending.length >= MAX_CHIPS) {
        this.warn(`Not attached: a message carries at most ${MAX_CHIPS} chips.`);
        break;
      }
      this.pending.push(chip);
    }
    this.post({ type: 'context', chips: this.pending });
  }

  remove(id: string): void {
    this.pending = this.pending.filter((c) => c.id !== id);
    this.post({ type: 'context', chips: this.pending });
  }

  /** A message takes the chips it was sent with: they are read now, and the next message starts without them. */
  async take(chips: readonly ContextChip[]): Promise<BuiltContext> {
    this.pending = this.pending.filter((p) => !chips.some((c) => c.id === p.id || sameChip(c, p)));
    this.post({ type: 'context', chips: this.pending });
    const folders = workspaceFolders();
    return buildContext(chips, {
      folders,
      unsaved: (canonical) => vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && workspaceFile(d.uri.fsPath, folders) === canonical)?.getText(),
      problems: problemsFor,
    });
  }

  /** The `@` picker: the workspace's files and folders best matching `query`. */
  async find(query: string): Promise<void> {
    this.watch();
    this.listing ??= listWorkspace();
    const entries = await this.listing.catch((error: unknown) => {
      this.warn(`The workspace's files could not be listed: ${error instanceof Error ? error.message : String(error)}`);
      this.listing = undefined;
      return [];
    });
    const matches = rankMatches(query, entries, MAX_MATCHES).map(({ path, kind }) => ({ path, kind }));
    this.post({ type: 'fileMatches', query, matches });
  }

  private followEditor(): void {
    const chip = activeEditorChip();
    if (JSON.stringify(chip) === JSON.stringify(this.active)) return;
    this.active = chip;
    this.post({ type: 'activeEditor', chip });
  }

  /** The listing is walked again after files come or go (made once the picker is first used). */
  private watch(): void {
    if (this.watcher) return;
    this.watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const forget = (): void => {
      this.listing = undefined;
    };
    this.disposables.push(this.watcher, this.watcher.onDidCreate(forget), this.watcher.onDidDelete(forget));
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

const workspaceFolders = (): { name: string; root: string }[] => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, root: f.uri.fsPath }));

/** Every file and folder of the workspace the tools would list (ignored ones left out), named as the chips name them. */
async function listWorkspace(): Promise<FileMatch[]> {
  const folders = workspaceFolders();
  const entries: FileMatch[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    const prefix = folders.length > 1 ? `${folder.name}/` : '';
    for await (const file of walkFiles({ root: folder.root, ignore: new IgnoreRules(folder.root) })) {
      if (entries.length >= MAX_LISTED) return entries;
      // Each folder on the way, once, before its files.
      for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) {
        const dir = `${prefix}${file.slice(0, at)}/`;
        if (seen.has(dir)) continue;
        seen.add(dir);
        entries.push({ path: dir, kind: 'folder' });
      }
      entries.push({ path: `${prefix}${file}`, kind: 'file' });
    }
  }
  return entries;
}
