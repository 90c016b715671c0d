import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { Workspace } from '../../src/core/workspace/workspace';
import { ProposalEditor } from '../../src/extension/proposalEditor';

// "Open diff" in the real host: VS Code's diff editor with the file on the left and the
// proposal on the right (the e2e test checks the focus stays in the panel); an edit on the right is what
// approving would write; closing leaves no editor and no scratch file behind.
suite('the proposal diff editor', () => {
  test('shows the file against the proposal; an edit is read back; close cleans up', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-proposal-'));
    fs.writeFileSync(path.join(root, 'a.txt'), 'before\n');
    const storage = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-proposal-storage-')));
    const target = new Workspace([{ path: root }]).resolve('a.txt');
    const editor = new ProposalEditor(storage);

    await editor.show('p1', { path: target, content: 'after\n', currentSha256: 'x' });
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff);
    assert.ok(tab, 'a diff editor is open');
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.fsPath, target.canonical);
    assert.match(tab.label, /a\.txt: current ↔ Peon's proposal/);
    assert.equal(await editor.editedText('p1'), undefined, 'untouched, there is no edited version');

    const proposal = await vscode.workspace.openTextDocument(input.modified);
    assert.equal(proposal.getText(), 'after\n');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(input.modified, new vscode.Range(0, 0, 0, 5), 'edited');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(await editor.editedText('p1'), 'edited\n', 'the unsaved edit is what would be written');

    await editor.close('p1');
    assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff).length, 0);
    assert.equal(fs.existsSync(path.join(storage.fsPath, 'proposals', 'p1')), false);
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'before\n', 'the file itself is untouched');
  });

  test('a proposal with mixed line endings, which the editor normalises, is not taken for an edit', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-proposal-eol-'));
    fs.writeFileSync(path.join(root, 'm.txt'), 'x\n');
    const storage = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-proposal-eol-storage-')));
    const editor = new ProposalEditor(storage);
    await editor.show('p2', { path: new Workspace([{ path: root }]).resolve('m.txt'), content: 'one\r\ntwo\nthree\r\n', currentSha256: 'x' });
    assert.equal(await editor.editedText('p2'), undefined);
    await editor.close('p2');
  });
});

