import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, resumeFromHistory, sendInNewChat, setSideBarWidth, startNewChat, UI_WAIT, type Workbench } from './workbench';

// Checkpoints in the real VS Code (DESIGN.md §10, issue 17): a scripted model runs a
// command that creates, modifies and deletes files; its card lists them, a file's diff
// opens in the diff editor (the tab says the file's name), Revert this step puts them
// back; the turn's list reverts one file; a file the person edited since asks with its
// versions and Keep mine leaves it; a chat resumed from history reverts what it saved;
// in a multi-root workspace a file is reverted in its own folder only.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(
    { 'index.js': 'console.log("one");\n', 'old.txt': 'old\n', 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'notes.md': '# Notes\n\nfirst\n' },
    // Commands run without a card here: the cards of approval are another test's.
    { 'files.autoSave': 'off', 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl, 'peon.permission.rules': { bash: 'allow' } },
  );
  fs.mkdirSync(shots, { recursive: true });
  // The panel has drawn and the host has answered (the model chip): a message typed now is sent.
  const chat = await openPeonView(workbench.page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await chat.getByText('fake-model').waitFor({ timeout: UI_WAIT });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const file = (name: string): string | undefined => (fs.existsSync(path.join(workbench.workspace, name)) ? fs.readFileSync(path.join(workbench.workspace, name), 'utf8') : undefined);
const rows = async (list: { allTextContents(): Promise<string[]> }): Promise<string[]> => (await list.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
/** The diff editor's two sides, as their text. */
const sides = async () => {
  const text = async (side: string) => ((await workbench.page.locator(`.monaco-diff-editor .editor.${side} .view-lines`).textContent()) ?? '').replace(/\u00a0/g, ' ');
  return { before: await text('original'), after: await text('modified') };
};

/** A new chat where the model runs `command` and says `answer`; returns once the turn's list is there. */
async function ask(prompt: string, command: string, answer: string): Promise<FrameLocator> {
  model.script({ toolCalls: [{ id: `b${++calls}`, name: 'bash', arguments: JSON.stringify({ command }) }] }, { text: answer });
  const chat = await sendInNewChat(workbench.page, prompt);
  await chat.getByRole('article', { name: 'Peon' }).filter({ hasText: answer }).waitFor({ timeout: UI_WAIT }).catch(async (error: unknown) => {
    // What the panel showed instead (a card waiting, a notice), for the failure's report.
    await workbench.page.screenshot({ path: path.join(shots, `checkpoints-failed-${calls}.png`) });
    throw new Error(`${String(error)}\nThe panel read: ${await chat.locator('main').innerText().catch(() => '?')}`);
  });
  await chat.getByRole('region', { name: 'Files changed in this turn' }).waitFor({ timeout: UI_WAIT });
  return chat;
}
let calls = 0;

test("a command's card lists what it created, modified and deleted; a file's diff opens; Revert this step restores them", async () => {
  const { page } = workbench;
  const chat = await ask('change the files', 'printf \'console.log("two");\\n\' > index.js; echo made > made.txt; rm old.txt', 'Changed three files.');
  const card = chat.getByRole('group', { name: 'Tool call bash' });
  const changes = card.getByRole('group', { name: 'What this step changed' });
  await expect.poll(() => changes.locator('.changes-summary').textContent(), { timeout: UI_WAIT }).toBe('created 1 file, changed 1, deleted 1');
  await expect.poll(() => rows(changes.getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M index.js Revert', 'A made.txt Revert', 'D old.txt Revert']);
  expect([file('index.js'), file('made.txt'), file('old.txt')]).toEqual(['console.log("two");\n', 'made\n', undefined]);

  // The diff: before and after the step, in VS Code's diff editor, the tab named after the file.
  await changes.getByRole('button', { name: 'index.js, modified: open the diff' }).click();
  await page.getByRole('tab', { name: /index\.js \(before ↔ after the step\)/ }).waitFor({ timeout: UI_WAIT });
  await expect.poll(sides, { timeout: UI_WAIT }).toEqual({ before: 'console.log("one");', after: 'console.log("two");' });
  await page.screenshot({ path: path.join(shots, 'checkpoints-diff-editor.png') });
  // A deleted file's diff: all of it before, nothing after.
  await openPeonView(page);
  await changes.getByRole('button', { name: 'old.txt, deleted: open the diff' }).click();
  await page.getByRole('tab', { name: /old\.txt \(before ↔ after the step\)/ }).waitFor({ timeout: UI_WAIT });
  await expect.poll(sides, { timeout: UI_WAIT }).toEqual({ before: 'old', after: '' });

  await openPeonView(page);
  await changes.getByRole('button', { name: 'Revert this step' }).click();
  await expect.poll(() => [file('index.js'), file('made.txt'), file('old.txt')], { timeout: UI_WAIT }).toEqual(['console.log("one");\n', undefined, 'old\n']);
  await expect.poll(() => changes.locator('.file-state').allTextContents(), { timeout: UI_WAIT }).toEqual(['reverted', 'reverted', 'reverted']);
  const list = chat.getByRole('region', { name: 'Files changed in this turn' });
  expect(await list.locator('.file-state').allTextContents()).toEqual(['reverted', 'reverted', 'reverted']);
  expect(await changes.getByRole('button', { name: 'Revert this step' }).count()).toBe(0);
});

test("the turn's list reverts one file and keeps another; a chat resumed from history reverts what it saved", async () => {
  const { page } = workbench;
  const chat = await ask('change a and b', 'echo a1 > a.txt; echo b1 > b.txt', 'Changed a and b.');
  const list = chat.getByRole('region', { name: 'Files changed in this turn' });
  expect([await list.locator('.turn-title').textContent(), ...(await rows(list.getByRole('listitem')))]).toEqual(['2 files changed in this turn', 'M a.txt Keep Revert', 'M b.txt Keep Revert']);
  await list.getByRole('button', { name: 'Revert a.txt' }).click();
  await expect.poll(() => file('a.txt'), { timeout: UI_WAIT }).toBe('a0\n');
  expect(file('b.txt')).toBe('b1\n');
  await expect.poll(() => rows(list.getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M a.txt reverted', 'M b.txt Keep Revert']);
  // The step's card says the same of its file.
  await expect.poll(() => rows(chat.getByRole('group', { name: 'What this step changed' }).getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M a.txt reverted', 'M b.txt Revert']);

  // Another chat, then this one again from history: b.txt still reverts.
  await startNewChat(page);
  await list.waitFor({ state: 'detached', timeout: UI_WAIT });
  await resumeFromHistory(page, chat, 'change a and b');
  const resumed = await openPeonView(page);
  const again = resumed.getByRole('region', { name: 'Files changed in this turn' });
  await expect.poll(() => rows(again.getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M a.txt reverted', 'M b.txt Keep Revert']);
  await again.getByRole('button', { name: 'Revert b.txt' }).click();
  await expect.poll(() => file('b.txt'), { timeout: UI_WAIT }).toBe('b0\n');
  await expect.poll(() => again.getByRole('button', { name: 'Revert the turn' }).count(), { timeout: UI_WAIT }).toBe(0);
});

test('a file you edited after the step: reverting it shows the versions and asks; Keep mine leaves it untouched (light and dark, 300 px)', async () => {
  const { page } = workbench;
  const chat = await ask('add a line to the notes', "printf '# Notes\\n\\nfirst\\nby Peon\\n' > notes.md; echo log > run.log", 'Added a line.');
  const changes = chat.getByRole('group', { name: 'What this step changed' });
  await changes.waitFor({ timeout: UI_WAIT });

  // The person opens the file, changes it and saves it.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget .quick-input-box input.input').fill('notes.md');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes.md' }).first().click();
  const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
  await expect.poll(async () => (await editor.textContent())?.replace(/\u00a0/g, ' '), { timeout: UI_WAIT }).toContain('by Peon');
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('by me\n');
  await page.keyboard.press('Control+S');
  await expect.poll(() => file('notes.md'), { timeout: UI_WAIT }).toBe('# Notes\n\nfirst\nby Peon\nby me\n');

  await openPeonView(page);
  await changes.getByRole('button', { name: 'Revert notes.md' }).click();
  const conflict = chat.getByRole('group', { name: "Changed since Peon's step: Revert this step" });
  await conflict.waitFor({ timeout: UI_WAIT });
  expect(await conflict.locator('.conflict-title').textContent()).toContain("notes.md changed since Peon's step");
  // The three versions: Peon's → now (your line), now → before the step (both lines go).
  expect(await conflict.getByRole('table', { name: "notes.md: Peon's version → now" }).locator('.diff-row.add').allTextContents()).toEqual(['+by me']);
  expect(await conflict.getByRole('table', { name: "notes.md: now → before Peon's change", includeHidden: true }).locator('.diff-row.del').allTextContents()).toEqual(['-by Peon', '-by me']);
  expect(file('notes.md')).toBe('# Notes\n\nfirst\nby Peon\nby me\n');

  await conflict.getByRole('button', { name: "Compare Peon's version ↔ now" }).click();
  await page.getByRole('tab', { name: /notes\.md \(Peon's version ↔ now\)/ }).waitFor({ timeout: UI_WAIT });
  await expect.poll(sides, { timeout: UI_WAIT }).toEqual({ before: '# Notesfirstby Peon', after: '# Notesfirstby Peonby me' });

  // How it looks, at 300 px: the card's list, the turn's list and the conflict card.
  await openPeonView(page);
  await setSideBarWidth(page, 300);
  await screenshots(chat, 'checkpoints-conflict');

  await conflict.getByRole('button', { name: 'Keep mine: notes.md' }).click();
  await conflict.waitFor({ state: 'detached', timeout: UI_WAIT });
  expect(file('notes.md')).toBe('# Notes\n\nfirst\nby Peon\nby me\n');
  expect(await changes.locator('.file-state').allTextContents()).toEqual([]);
  // The other file of the step reverts as asked: only notes.md waited.
  await changes.getByRole('button', { name: 'Revert run.log' }).click();
  await expect.poll(() => file('run.log'), { timeout: UI_WAIT }).toBeUndefined();
  await expect.poll(() => rows(chat.getByRole('region', { name: 'Files changed in this turn' }).getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M notes.md Keep Revert', 'A run.log reverted']);
  await screenshots(chat, 'checkpoints-reverted');
});

/** The side bar in the dark and the light theme, once the panel has its colours (a theme's side bar background). */
async function screenshots(chat: FrameLocator, name: string): Promise<void> {
  const { page } = workbench;
  for (const [theme, short, background] of [['Dark Modern', 'dark', 'rgb(24, 24, 24)'], ['Light Modern', 'light', 'rgb(248, 248, 248)']] as const) {
    await pickColorTheme(page, theme);
    await expect.poll(() => chat.locator('body').evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).backgroundColor), { timeout: UI_WAIT }).toBe(background);
    await expect.poll(() => page.locator('.part.sidebar').evaluate((bar) => bar.ownerDocument.defaultView!.getComputedStyle(bar).backgroundColor), { timeout: UI_WAIT }).toBe(background);
    await chat.locator('.transcript').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await page.locator('.part.sidebar').screenshot({ path: path.join(shots, `${name}-${short}-300.png`) });
  }
}

test('editing and resending a message offers to restore the files Peon changed after it; Restore Files puts them back first', async () => {
  const { page } = workbench;
  const chat = await ask('write a draft', "echo 'first draft' > draft.txt; printf 'a1\\n' > a.txt", 'Wrote the draft.');
  expect([file('draft.txt'), file('a.txt')]).toEqual(['first draft\n', 'a1\n']);

  model.script({ text: 'Starting over.' });
  const first = chat.locator('.message-row').first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit your message' }).click();
  const box = chat.getByRole('textbox', { name: 'Your message, edited' });
  await box.fill('write a shorter draft');
  await box.press('Enter');

  // VS Code's own dialog, before anything is cut: how many files, and what restoring does.
  const dialog = page.getByRole('dialog').filter({ hasText: 'Restore the files Peon changed after this message?' });
  await dialog.waitFor({ timeout: UI_WAIT });
  expect(await dialog.textContent()).toContain('2 files changed since.');
  await page.screenshot({ path: path.join(shots, 'checkpoints-edit-restore.png') });
  await dialog.getByRole('button', { name: 'Restore Files' }).click();
  await expect.poll(() => [file('draft.txt'), file('a.txt')], { timeout: UI_WAIT }).toEqual([undefined, 'a0\n']);
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Starting over.']);
});

test('a multi-root workspace: one step changes a file of each folder; each is listed by its folder, and one reverts alone', async () => {
  const { page } = workbench;
  const second = path.join(path.dirname(workbench.workspace), 'second');
  fs.mkdirSync(second, { recursive: true });
  fs.writeFileSync(path.join(second, 'README.md'), 'lib\n');
  fs.writeFileSync(path.join(workbench.workspace, 'README.md'), 'app\n');
  const file = path.join(path.dirname(workbench.workspace), 'both.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: [{ path: workbench.workspace, name: 'app' }, { path: second, name: 'lib' }] }));
  const url = new URL(page.url());
  url.searchParams.delete('folder');
  url.searchParams.set('workspace', file);
  const explorer = page.locator('.activitybar li[role="tab"]', { has: page.locator('a.action-label[aria-label^="Explorer"]') });
  const roots = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^\s*(app|lib)\s*$/ });
  const none = page.getByText('You have not yet added a folder to the workspace.');
  // The window has both folders once the explorer lists them (the extension host sees them
  // then too). Now and then code-server opens a workspace file with no folders: it is opened again.
  for (let attempt = 1; ; attempt++) {
    await page.goto(url.toString());
    await page.waitForSelector('.monaco-workbench', { timeout: UI_WAIT });
    // Clicking the container already showing would close the side bar.
    if (!(await explorer.evaluate((li) => li.classList.contains('checked')))) await explorer.click();
    await roots.nth(1).or(none).waitFor({ timeout: UI_WAIT });
    if ((await roots.count()) === 2) break;
    if (attempt === 3) throw new Error(`code-server opened ${file} with no folders three times`);
  }

  const chat = await ask('update both readmes', 'echo APP > README.md; echo LIB > ../second/README.md', 'Updated both.');
  const changes = chat.getByRole('group', { name: 'What this step changed' });
  await expect.poll(() => rows(changes.getByRole('listitem')), { timeout: UI_WAIT }).toEqual(['M README.md app Revert', 'M README.md lib Revert']);
  await changes.getByRole('button', { name: 'Revert lib/README.md' }).click();
  await expect.poll(() => fs.readFileSync(path.join(second, 'README.md'), 'utf8'), { timeout: UI_WAIT }).toBe('lib\n');
  expect(fs.readFileSync(path.join(workbench.workspace, 'README.md'), 'utf8')).toBe('APP\n');
  await changes.getByRole('button', { name: 'README.md lib, modified, reverted: open the diff' }).click();
  await page.getByRole('tab', { name: /README\.md \(before ↔ after the step\)/ }).waitFor({ timeout: UI_WAIT });
  await expect.poll(sides, { timeout: UI_WAIT }).toEqual({ before: 'lib', after: 'LIB' });
});
