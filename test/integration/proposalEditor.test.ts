import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalReply, ApprovalRequest } from '../../src/core/permissions/approvals';
import type { Proposal } from '../../src/core/tools/contract';
import { Workspace } from '../../src/core/workspace/workspace';
import { ApprovalCards } from '../../src/extension/approvals';
import { ProposalEditor } from '../../src/extension/proposalEditor';
import type { HostMessage } from '../../src/shared/messages';

// "Open diff" in the real host: VS Code's diff editor with the file on the left and the
// proposal on the right, served from memory under the file's own path (the tab and the
// breadcrumb name the file, not Peon's storage); an edit on the right, saved or not, is
// what approving would write, and a save never reaches the real file; Accept and Reject
// answer the card; closing leaves no editor and nothing on disk behind. The e2e test
// (reviewDiff.e2e.test.ts) checks the title bar, the breadcrumb and the focus.
const diffTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);

function workspaceWith(files: Record<string, string>): { root: string; resolve: (p: string) => Proposal['path'] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-proposal-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  const workspace = new Workspace([{ path: root }]);
  return { root, resolve: (p) => workspace.resolve(p) };
}

/** Resolves with the next value `subscribe` hands on that `accept` takes. */
function next<T>(subscribe: (listener: (value: T) => void) => void, accept: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => subscribe((value) => accept(value) && resolve(value)));
}

async function replaceAll(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  return document;
}

suite('the proposal diff editor', () => {
  test("the proposal is served from memory at the file's own path; the tab names the file; a save stays in memory", async () => {
    const { root, resolve } = workspaceWith({ 'src/app.ts': 'before\n' });
    const target = resolve('src/app.ts');
    const edits: { id: string; text: string | undefined }[] = [];
    let heard: (edit: { id: string; text: string | undefined }) => void = () => {};
    const editor = new ProposalEditor((id, text) => {
      edits.push({ id, text });
      heard({ id, text });
    });
    try {
      await editor.show('p1', { path: target, content: 'after\n', currentSha256: 'x' });
      const [tab] = diffTabs();
      assert.ok(tab, 'a diff editor is open');
      const input = tab.input as vscode.TabInputTextDiff;
      assert.equal(input.original.fsPath, target.canonical, 'the left side is the real file');
      assert.equal(input.modified.scheme, 'peon-proposal');
      assert.equal(input.modified.path, '/src/app.ts', "the breadcrumb reads the file's workspace path");
      assert.equal(input.modified.authority, 'p1', 'the approval is named by the authority');
      assert.equal(tab.label, "app.ts ↔ Peon's proposal");
      assert.doesNotMatch(`${tab.label} ${input.modified.toString()}`, /workspaceStorage|proposals/);
      assert.equal(editor.idOf(input.modified), 'p1');
      assert.equal(editor.idOf(vscode.Uri.file(target.canonical)), 'p1', "the active editor's proposal, when the URI given is not one");
      assert.equal(editor.idOf(vscode.Uri.from({ scheme: 'peon-proposal', authority: 'unknown', path: '/src/app.ts' })), undefined, 'a proposal never shown is none');
      assert.equal(await editor.editedText('p1'), undefined, 'untouched, there is no edited version');

      const reported = next<{ id: string; text: string | undefined }>((l) => (heard = l), (e) => e.text !== undefined);
      const document = await replaceAll(input.modified, 'edited\n');
      assert.equal(await editor.editedText('p1'), 'edited\n', 'the unsaved edit is what would be written');
      assert.deepEqual(await reported, { id: 'p1', text: 'edited\n' });

      assert.ok(await document.save(), 'a save succeeds');
      assert.equal(document.isDirty, false);
      assert.equal(Buffer.from(await vscode.workspace.fs.readFile(input.modified)).toString('utf8'), 'edited\n', 'the save is kept in memory');
      assert.equal(fs.readFileSync(path.join(root, 'src', 'app.ts'), 'utf8'), 'before\n', 'the real file is untouched');
      assert.deepEqual(fs.readdirSync(root), ['src'], 'nothing is written beside it');

      // Undone, the card shows Peon's proposal again.
      const reverted = next<{ id: string; text: string | undefined }>((l) => (heard = l), (e) => e.text === undefined);
      await replaceAll(input.modified, 'after\n');
      assert.deepEqual(await reverted, { id: 'p1', text: undefined });
      assert.deepEqual(edits, [{ id: 'p1', text: 'edited\n' }, { id: 'p1', text: undefined }], 'each change of state reported once');

      await editor.close('p1');
      assert.equal(diffTabs().length, 0);
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(input.modified)), 'a closed proposal is gone from memory');
      assert.equal(fs.readFileSync(path.join(root, 'src', 'app.ts'), 'utf8'), 'before\n');
    } finally {
      editor.dispose();
    }
  });

  test('a new file: the left side is an empty document from memory, and nothing is created on disk', async () => {
    const { root, resolve } = workspaceWith({});
    const editor = new ProposalEditor();
    try {
      await editor.show('p3', { path: resolve('lib/new.ts'), content: 'export {};\n', currentSha256: undefined });
      const [tab] = diffTabs();
      assert.ok(tab);
      const input = tab.input as vscode.TabInputTextDiff;
      assert.equal(tab.label, "new.ts (new file) ↔ Peon's proposal");
      assert.equal(input.original.scheme, 'peon-proposal');
      assert.equal(input.original.path, '/lib/new.ts');
      assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), '');
      assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'export {};\n');
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(input.original, Buffer.from('x'))), 'the empty side is read-only');
      assert.deepEqual(fs.readdirSync(root), []);
      await editor.close('p3');
      assert.equal(diffTabs().length, 0);
      assert.deepEqual(fs.readdirSync(root), []);
    } finally {
      editor.dispose();
    }
  });

  test("a proposal that starts with a UTF-8 BOM: opened untouched it is no edit; edited, the person's version keeps the BOM", async () => {
    const { resolve } = workspaceWith({ 'bom.txt': '\uFEFFold\n' });
    const editor = new ProposalEditor();
    try {
      await editor.show('p4', { path: resolve('bom.txt'), content: '\uFEFFnew\n', currentSha256: 'x' });
      const input = diffTabs()[0]!.input as vscode.TabInputTextDiff;
      await vscode.workspace.openTextDocument(input.modified);
      assert.equal(await editor.editedText('p4'), undefined, 'the BOM the editor hides is not an edit');
      await replaceAll(input.modified, 'mine\n');
      assert.equal(await editor.editedText('p4'), '\uFEFFmine\n');
      await editor.close('p4');
    } finally {
      editor.dispose();
    }
  });

  test('a proposal with mixed line endings, which the editor normalises, is not taken for an edit', async () => {
    const { resolve } = workspaceWith({ 'm.txt': 'x\n' });
    const editor = new ProposalEditor();
    try {
      await editor.show('p2', { path: resolve('m.txt'), content: 'one\r\ntwo\nthree\r\n', currentSha256: 'x' });
      assert.equal(await editor.editedText('p2'), undefined);
      await editor.close('p2');
    } finally {
      editor.dispose();
    }
  });
});

suite("the proposal's card and its Accept / Reject", () => {
  const log = vscode.window.createOutputChannel('Peon proposal test', { log: true });

  function writeRequest(target: Proposal['path'], content: string, before: string | undefined): ApprovalRequest {
    const proposal: Proposal = { path: target, content, currentSha256: before === undefined ? undefined : 'x' };
    return {
      tool: 'write',
      agent: 'main',
      assessment: { risk: 'filesystem', writes: true, paths: [target], summary: { kind: 'file-change', path: target.display, operation: before === undefined ? 'create' : 'overwrite', diff: '(the tool’s diff)', reasons: [] }, proposal },
      permission: { decision: 'ask', mode: 'semi-ask', source: 'default for write: semi-ask', reasons: ['it changes files'], grantable: [target.display], sessionGrants: [target.display] },
    };
  }

  async function pendingCard(cards: ApprovalCards, posted: HostMessage[], request: ApprovalRequest): Promise<{ id: string; reply: Promise<ApprovalReply>; input: vscode.TabInputTextDiff }> {
    const reply = cards.broker.approve(request, new AbortController().signal);
    const card = posted.find((m): m is Extract<HostMessage, { type: 'approval' }> => m.type === 'approval' && !posted.some((s) => s.type === 'approvalSettled' && s.id === m.card.id));
    assert.ok(card);
    await cards.openDiff(card.card.id);
    const tab = diffTabs()[0];
    assert.ok(tab);
    return { id: card.card.id, reply, input: tab.input as vscode.TabInputTextDiff };
  }

  test('an edit shows on the card as the person\'s diff; Accept approves once with it and closes the diff', async () => {
    const { root, resolve } = workspaceWith({ 'README.md': '# title\nold line\n' });
    const posted: HostMessage[] = [];
    let heard: (m: HostMessage) => void = () => {};
    const cards = new ApprovalCards((m) => {
      posted.push(m);
      heard(m);
    }, log);
    try {
      const { id, reply, input } = await pendingCard(cards, posted, writeRequest(resolve('README.md'), '# title\nPeon line\n', '# title\nold line\n'));
      const edited = next<HostMessage>((l) => (heard = l), (m) => m.type === 'approvalEdited' && m.diff !== null);
      await replaceAll(input.modified, '# title\nmy line\n');
      const message = await edited;
      assert.ok(message.type === 'approvalEdited' && message.id === id);
      assert.match(message.diff ?? '', /^-old line$/m, 'a diff against the file as it is');
      assert.match(message.diff ?? '', /^\+my line$/m, "the person's version");
      assert.doesNotMatch(message.diff ?? '', /Peon line/);
      assert.match(cards.pending()[0]?.editedDiff ?? '', /^\+my line$/m, 'a reloaded panel shows the edited card too');

      await cards.answerProposal(input.modified, true);
      assert.deepEqual(await reply, { approved: true, scope: 'once', edited: '# title\nmy line\n' });
      assert.ok(posted.some((m) => m.type === 'approvalSettled' && m.id === id), 'the card settles');
      await waitFor(() => diffTabs().length === 0, 'the diff closes');
      assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# title\nold line\n', 'the broker, not the editor, writes the file');
    } finally {
      cards.dispose();
    }
  });

  test('an edit undone puts the original diff back; Reject (from the active editor) denies', async () => {
    const { resolve } = workspaceWith({});
    const posted: HostMessage[] = [];
    let heard: (m: HostMessage) => void = () => {};
    const cards = new ApprovalCards((m) => {
      posted.push(m);
      heard(m);
    }, log);
    try {
      const { id, reply, input } = await pendingCard(cards, posted, writeRequest(resolve('new.txt'), 'Peon\n', undefined));
      const edited = next<HostMessage>((l) => (heard = l), (m) => m.type === 'approvalEdited' && m.diff !== null);
      await replaceAll(input.modified, 'mine\n');
      const message = await edited;
      assert.ok(message.type === 'approvalEdited');
      assert.match(message.diff ?? '', /^--- \/dev\/null$/m, 'a new file');
      const restored = next<HostMessage>((l) => (heard = l), (m) => m.type === 'approvalEdited' && m.diff === null);
      await replaceAll(input.modified, 'Peon\n');
      assert.deepEqual(await restored, { type: 'approvalEdited', id, diff: null });
      assert.equal(cards.pending()[0]?.editedDiff, undefined);

      // The diff is the active editor: Reject without a URI answers its card.
      await cards.answerProposal(undefined, false);
      assert.deepEqual(await reply, { approved: false });
      await waitFor(() => diffTabs().length === 0, 'the diff closes');
    } finally {
      cards.dispose();
    }
  });

  test('Accept with no proposal in the active editor answers nothing', async () => {
    const posted: HostMessage[] = [];
    const cards = new ApprovalCards((m) => posted.push(m), log);
    const { resolve } = workspaceWith({ 'a.txt': 'a\n' });
    const reply = cards.broker.approve(writeRequest(resolve('a.txt'), 'b\n', 'a\n'), new AbortController().signal);
    await cards.answerProposal(vscode.Uri.from({ scheme: 'peon-proposal', authority: 'not-open', path: '/a.txt' }), true);
    assert.equal(posted.some((m) => m.type === 'approvalSettled'), false, 'a proposal never opened is no answer');
    cards.dispose();
    assert.equal((await reply).approved, false);
  });
});

/** Resolves once `condition` holds, checked whenever the tabs change (the diff closes on the card's answer). */
function waitFor(condition: () => boolean, what: string): Promise<void> {
  if (condition()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (!condition()) return;
      listener.dispose();
      resolve();
    });
  }).then(() => assert.ok(condition(), what));
}
