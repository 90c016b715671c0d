import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, sendInNewChat, sendMessage, UI_WAIT, type Workbench } from './workbench';

// Approval cards in the real VS Code (DESIGN.md §5, §7): approve a write and see the
// file on disk; deny one and see nothing change; edit a proposal in VS Code's diff
// editor, approve, and find the edited text on disk. The model is the scripted server.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  // Auto save off (the web default is on), so an edited file stays unsaved.
  workbench = await openPeonWorkbench({ 'README.md': '# project\n' }, { 'files.autoSave': 'off', 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const write = (id: string, file: string, content: string) => ({ toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path: file, content }) }] });

const ask = (prompt: string) => sendInNewChat(workbench.page, prompt);

test('a write approved on its card lands on disk; the card showed the diff and why it asked', async () => {
  model.script(write('w1', 'hello.txt', 'hello from Peon\n'), { text: 'Created it.' });
  const chat = await ask('create hello.txt');
  const card = chat.getByRole('group', { name: 'Approval: Create hello.txt' });
  await card.waitFor({ timeout: UI_WAIT });
  expect(await card.locator('.diff-row.add').allTextContents()).toEqual(['+hello from Peon']);
  expect(await card.locator('.why summary').textContent()).toBe('Why it asks: Changes to files ask first');
  expect(fs.existsSync(path.join(workbench.workspace, 'hello.txt'))).toBe(false);
  // The call's own card says what it waits for, not that it runs.
  const toolCard = chat.getByRole('group', { name: 'Tool call write' });
  await expect.poll(() => toolCard.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('waiting for approval');
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-approval-card.png') });
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Created it.']);
  expect(fs.readFileSync(path.join(workbench.workspace, 'hello.txt'), 'utf8')).toBe('hello from Peon\n');
  expect(await toolCard.locator('.tool-status').textContent()).toBe('done');
});

test('a write denied with a message changes nothing; the model is told, with the message', async () => {
  model.script(write('w2', 'denied.txt', 'should never exist\n'), { text: 'Understood, I will not.' });
  const chat = await ask('create denied.txt');
  const card = chat.getByRole('group', { name: 'Approval: Create denied.txt' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('textbox', { name: 'Message for Peon with Deny' }).fill('not in this folder');
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Understood, I will not.']);
  expect(fs.existsSync(path.join(workbench.workspace, 'denied.txt'))).toBe(false);
  expect(await chat.getByRole('group', { name: 'Tool call write' }).locator('.tool-status').textContent()).toBe('denied');
  const sent = JSON.stringify(model.requests.at(-1)?.body);
  expect(sent).toContain('The user denied this write call');
  expect(sent).toContain('not in this folder');
});

test('a proposal edited in the diff editor, then approved, is what lands on disk; the model is told', async () => {
  model.script(write('w3', 'notes.txt', 'proposed by Peon\n'), { text: 'Noted your edit.' });
  const chat = await ask('write notes.txt');
  const card = chat.getByRole('group', { name: 'Approval: Create notes.txt' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Open diff' }).click();

  // VS Code's diff editor: the proposal on the right, editable.
  const { page } = workbench;
  const modified = page.locator('.monaco-diff-editor .editor.modified');
  await modified.waitFor({ timeout: UI_WAIT });
  // Opened without taking the focus: it is still in the Peon panel's webview.
  expect(await page.locator('body').evaluate((body) => body.ownerDocument.activeElement?.tagName)).toBe('IFRAME');
  const shown = async () => (await modified.locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ');
  await expect.poll(shown, { timeout: UI_WAIT }).toContain('proposed by Peon');
  await modified.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('edited by the user');
  await expect.poll(shown, { timeout: UI_WAIT }).toContain('edited by the user');
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-approval-open-diff.png') });

  const chatAgain = await openPeonView(page);
  await chatAgain.getByRole('group', { name: 'Approval: Create notes.txt' }).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => chatAgain.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Noted your edit.']);
  expect(fs.readFileSync(path.join(workbench.workspace, 'notes.txt'), 'utf8')).toBe('edited by the user');
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('The user edited your proposed change to notes.txt before approving it');
  // The diff editor of the settled proposal is closed again.
  await expect.poll(() => page.locator('.monaco-diff-editor').count(), { timeout: UI_WAIT }).toBe(0);
});

test("review after the fact (#11): the diff's tab and breadcrumb name the file; an edit shows on the card; Accept in the editor's title bar writes it", async () => {
  fs.writeFileSync(path.join(workbench.workspace, 'review.md'), '# review\nold line\n');
  model.script(write('w4', 'review.md', '# review\nPeon line\n'), { text: 'Took your version.' });
  const chat = await ask('rewrite review.md');
  const card = chat.getByRole('group', { name: 'Approval: Overwrite review.md' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Open diff' }).click();

  const { page } = workbench;
  const modified = page.locator('.monaco-diff-editor .editor.modified');
  await modified.waitFor({ timeout: UI_WAIT });
  // The tab and the breadcrumb name the file, not Peon's storage.
  const tab = page.locator('.tabs-container .tab.active');
  await expect.poll(() => tab.getAttribute('aria-label'), { timeout: UI_WAIT }).toMatch(/^review\.md ↔ Peon's proposal/);
  const crumbs = page.locator('.breadcrumbs-control').first();
  await expect.poll(async () => (await crumbs.textContent()) ?? '', { timeout: UI_WAIT }).toContain('review.md');
  expect(await crumbs.textContent()).not.toMatch(/workspaceStorage|proposals|peon-proposal/);

  const shown = async () => (await modified.locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ');
  await expect.poll(shown, { timeout: UI_WAIT }).toContain('Peon line');
  await modified.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('# review\nmy line\n');
  await expect.poll(shown, { timeout: UI_WAIT }).toContain('my line');

  // Before approving, the card shows the person's version as what will be written.
  const panel = await openPeonView(page);
  const edited = panel.getByRole('group', { name: 'Approval: Overwrite review.md' });
  await expect.poll(() => edited.locator('.edited').textContent(), { timeout: UI_WAIT }).toContain('Edited by you');
  expect(await edited.locator('.diff-row.add').allTextContents()).toEqual(['+my line']);
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-review-edited-card.png') });

  // Accept sits in the diff editor's title bar.
  await modified.locator('.view-lines').click();
  const accept = page.locator('.editor-actions .action-label[aria-label^="Accept"]');
  await accept.waitFor({ timeout: UI_WAIT });
  await page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-review-diff-title.png') });
  await accept.click();
  await expect.poll(() => panel.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Took your version.']);
  expect(fs.readFileSync(path.join(workbench.workspace, 'review.md'), 'utf8')).toBe('# review\nmy line\n');
  await expect.poll(() => page.locator('.monaco-diff-editor').count(), { timeout: UI_WAIT }).toBe(0);
});

test('allow for this chat: the same command runs again without a card; revoked, it asks again', async () => {
  const touch = (id: string) => ({ toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: 'touch made.txt' }) }] });
  model.script(touch('t1'), { text: 'Touched.' });
  const chat = await ask('touch it');
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Allow touch made.txt for this chat' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Touched.']);
  const grants = chat.getByRole('region', { name: 'Allowed for this chat' });
  expect((await grants.textContent())?.replace(/\s+/g, ' ')).toContain('bash touch made.txt');

  // The same chat: the granted command runs with no card.
  model.script(touch('t2'), { text: 'Touched again.' });
  await sendMessage(chat, 'again');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Touched.', 'Touched again.']);
  expect(await chat.getByRole('group', { name: /^Approval:/ }).count()).toBe(0);

  await grants.getByRole('button', { name: 'Revoke bash touch made.txt' }).click();
  await grants.waitFor({ state: 'detached', timeout: UI_WAIT });
  model.script(touch('t3'), { text: 'Asked first.' });
  await sendMessage(chat, 'once more');
  const again = chat.getByRole('group', { name: 'Approval: Run a command' });
  await again.waitFor({ timeout: UI_WAIT });
  await again.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toContain('Asked first.');
});

test('"Always allow" writes a rule to user settings, never the workspace\'s; the rule then lets the command run', async () => {
  const touch = (id: string) => ({ toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: 'touch always.txt' }) }] });
  model.script(touch('a1'), { text: 'Done.' });
  const chat = await ask('touch always');
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Always allow touch always.txt — saved in your user settings' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Done.']);
  await expect.poll(() => JSON.parse(fs.readFileSync(workbench.userSettingsFile, 'utf8'))['peon.permission.rules'], { timeout: UI_WAIT }).toEqual({ bash: { 'touch always.txt': 'allow' } });
  expect(fs.existsSync(path.join(workbench.workspace, '.vscode', 'settings.json'))).toBe(false);

  // A new chat (no session grants): the user rule alone lets it run.
  model.script(touch('a2'), { text: 'Again, no card.' });
  const next = await ask('touch always again');
  await expect.poll(() => next.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Again, no card.']);
  expect(await next.getByRole('group', { name: /^Approval:/ }).count()).toBe(0);
});

test('a write to a file open with unsaved changes asks, says so, and the unsaved text stays in the editor', async () => {
  const { page } = workbench;
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget .quick-input-box input.input').fill('README.md');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'README.md' }).first().click();
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('my unsaved note');
  await page.locator('.tab.dirty', { hasText: 'README.md' }).waitFor({ timeout: UI_WAIT });

  model.script(
    { toolCalls: [{ id: 'r1', name: 'read', arguments: '{"path":"README.md"}' }] },
    write('w5', 'README.md', '# project, rewritten by Peon\n'),
    { text: 'Rewrote it.' },
  );
  const chat = await ask('rewrite the readme');
  const card = chat.getByRole('group', { name: 'Approval: Overwrite README.md' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.locator('.why summary').click();
  expect(await card.locator('.why li').first().textContent()).toBe('README.md is open in the editor with unsaved changes: approving writes the file on disk, and your unsaved text stays in the editor');
  // Nothing to grant for a file with unsaved changes: each such write asks.
  expect(await card.getByRole('button', { name: /for this chat$/ }).count()).toBe(0);
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Rewrote it.']);
  expect(fs.readFileSync(path.join(workbench.workspace, 'README.md'), 'utf8')).toBe('# project, rewritten by Peon\n');
  // The editor still holds the person's unsaved text.
  await page.locator('.tab.dirty', { hasText: 'README.md' }).waitFor({ timeout: UI_WAIT });
  expect((await editor.locator('.view-lines').textContent())?.replace(/\u00a0/g, ' ')).toContain('my unsaved note');
});
