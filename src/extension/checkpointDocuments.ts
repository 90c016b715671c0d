// A step's files in VS Code's diff editor (DESIGN.md §10): the versions the checkpoints
// kept are read-only documents of the `peon-checkpoint:` scheme, named after the file
// (so the tab and the language follow it) and addressed by step, change and side, which
// the host looks up in the chat's own record. "Now" is the workspace file itself.
import path from 'node:path';
import * as vscode from 'vscode';
import { folderNames, type FileNames } from './changedFiles';
import { PanelCheckpoints, type CheckpointHooks, type DiffSide } from './panelCheckpoints';
import { runtime } from './runtime';

export const CHECKPOINT_SCHEME = 'peon-checkpoint';

/** The workspace's folders, by their real paths (a step's changes name canonical folders). */
export const checkpointNames: FileNames = folderNames(() => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, root: f.uri.fsPath })));

/** Serves the kept versions; an address it does not know reads as a sentence saying so. */
export function registerCheckpointDocuments(checkpoints: () => PanelCheckpoints): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
    provideTextDocumentContent(uri: vscode.Uri): string {
      const query = new URLSearchParams(uri.query);
      const side = query.get('side');
      const step = query.get('step');
      const index = Number(query.get('index'));
      if (side !== 'before' && side !== 'after') return '';
      if (!step || !Number.isInteger(index) || index < 0) return '';
      return checkpoints().stored(step, index, side);
    },
  });
}

function uriOf(side: DiffSide): vscode.Uri {
  if (side.kind === 'file') return vscode.Uri.file(side.path);
  const query = side.kind === 'stored' ? new URLSearchParams({ step: side.step, index: String(side.index), side: side.side }).toString() : 'side=none';
  // The file's own name last: the tab, the icon and the language are the file's.
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${side.name.split(/[\\/]/).filter((p) => p !== '' && p !== '..').join('/') || path.basename(side.name)}`, query });
}

/** Opens two sides in the diff editor, titled `title` (the tab says the file's name and which versions). */
export async function openCheckpointDiff(left: DiffSide, right: DiffSide, title: string): Promise<void> {
  await vscode.commands.executeCommand('vscode.diff', uriOf(left), uriOf(right), title, { preview: true });
}

/** The panel's checkpoints with VS Code's side filled in: names, the diff editor, the runtime's diffs, the trash. */
export function panelCheckpoints(hooks: Pick<CheckpointHooks, 'checkpoints' | 'post' | 'transcript' | 'save' | 'notice'>, storageUri: vscode.Uri): PanelCheckpoints {
  return new PanelCheckpoints({
    ...hooks,
    names: checkpointNames,
    openDiff: openCheckpointDiff,
    diff: (name, before, after) => runtime().fileDiff(name, before, after),
    trashDir: vscode.Uri.joinPath(storageUri, 'trash').fsPath,
  });
}
