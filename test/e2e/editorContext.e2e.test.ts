import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, runCommand, sendMessage, startNewChat, UI_WAIT, type Workbench } from './workbench';

// The walkthrough's problem #6, as it did it: open index.js, select 5 lines, ask about
// them — now with Add Selection to Chat (from the palette, the editor's context menu
// and its key), Explain Selection, Fix Problems in File on a JSON file with a syntax
// error, the "Fix with Peon" Quick Fix, the `@` picker, and the active editor riding
// along; each time what the scripted model server received is checked. Then the same
// in Restricted Mode: the chips still work (they are reads), nothing runs.
const INDEX = Array.from({ length: 40 }, (_, i) => `const v${i + 1} = ${i + 1}; // line ${i + 1}`).join('\n') + '\n';
const FILES = {
  'index.js': INDEX,
  'broken.json': '{\n  "name": "demo"\n  "version": "1.0.0"\n}\n',
  'src/indexer.js': 'module.exports = {};\n',
  'README.md': '# demo\n',
  '.gitignore': 'dist/\n',
  'dist/index.bundle.js': 'bundled\n',
  '.peonignore': 'private/\n',
  'private/index-notes.md': 'not for the model\n',
};
const shots = path.join(artifactsDir, 'e2e');

type Model = Awaited<ReturnType<typeof startModelServer>>;

/** The last user message the model server received that holds `text`. */
function userMessage(model: Model, text: string): string {
  for (const request of [...model.requests].reverse()) {
    const messages = (request.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
    const users = messages.filter((m) => m.role === 'user');
    const last = users[users.length - 1];
    if (!last) continue;
    const content = typeof last.content === 'string' ? last.content : (last.content as { text?: string }[]).map((p) => p.text ?? '').join('');
    if (content.includes(text)) return content;
  }
  throw new Error(`No request held ${JSON.stringify(text)}.`);
}

/** Opens a workspace file with Quick Open, as a person would (F1 and the name: Ctrl+P is not forwarded from the panel's webview). */
async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click({ timeout: UI_WAIT });
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: UI_WAIT });
}

/** Selects lines `from`..`to` whole in the active editor (Go to Line, then Shift+Down and Shift+End). */
async function selectLines(page: Page, from: number, to: number): Promise<void> {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(from));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Home');
  for (let line = from; line < to; line++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+End');
  await expect.poll(() => page.locator('.editor-instance .monaco-editor .selected-text').count(), { timeout: UI_WAIT }).toBeGreaterThan(0);
}

const chipTexts = async (chat: FrameLocator): Promise<string[]> =>
  (await chat.getByRole('list', { name: 'Context for the next message' }).getByRole('listitem').allTextContents().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
const sentChips = async (chat: FrameLocator): Promise<string[]> =>
  (await chat.getByRole('list', { name: 'Context sent with this message' }).last().getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
const answers = (chat: FrameLocator) => chat.getByRole('article', { name: 'Peon' });
/** The items of the editor context menu's Peon submenu (the last menu open). */
const peonItems = async (page: Page): Promise<string[]> =>
  (await page.locator('.context-view .monaco-menu').last().locator('.action-label').allTextContents()).map((t) => t.trim()).filter((t) => t !== '');

describe('a trusted workspace', () => {
  let model: Model;
  let workbench: Workbench;

  beforeAll(async () => {
    model = await startModelServer();
    workbench = await openPeonWorkbench(FILES, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
    fs.mkdirSync(shots, { recursive: true });
  });

  afterAll(async () => {
    await workbench?.close();
    await model?.close();
  });

  // A menu or picker a failed step left open would hide the next test's clicks.
  beforeEach(async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.page.keyboard.press('Escape');
  });

  test('Add Selection to Chat from the palette, the context menu and its key: chips, one removed; sent with the message; the next message goes without them', async () => {
    const { page } = workbench;
    const chat = await openPeonView(page);
    await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
    await openFile(page, 'index.js');

    await selectLines(page, 3, 7);
    await runCommand(page, 'Peon: Add Selection to Chat');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js:3–7 ×']);

    await selectLines(page, 10, 14);
    // Right-clicked inside the selection, which stays.
    await page.locator('.editor-instance .monaco-editor .view-line', { hasText: '// line 12' }).click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.getByRole('menuitem', { name: 'Peon' }).hover();
    await menu.getByRole('menuitem', { name: 'Add Selection to Chat' }).waitFor({ timeout: UI_WAIT });
    expect(await peonItems(page)).toEqual(['Add Selection to Chat', 'Explain Selection', 'Fix Problems in File']);
    await menu.getByRole('menuitem', { name: 'Add Selection to Chat' }).click({ timeout: UI_WAIT });
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js:3–7 ×', 'index.js:10–14 ×']);

    await selectLines(page, 20, 24);
    await page.keyboard.press('Control+Alt+K');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js:3–7 ×', 'index.js:10–14 ×', 'index.js:20–24 ×']);

    await chat.getByRole('button', { name: 'Remove index.js, lines 10–14' }).click();
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js:3–7 ×', 'index.js:20–24 ×']);

    model.script({ text: 'They declare constants.' });
    await sendMessage(chat, 'What do these lines do?');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('They declare constants.');
    const sent = userMessage(model, 'What do these lines do?');
    expect(sent).toContain('<attached_file path="index.js" lines="3-7" total_lines="40" source="selection">\n3\tconst v3 = 3; // line 3\n4\tconst v4 = 4; // line 4\n5\tconst v5 = 5; // line 5\n6\tconst v6 = 6; // line 6\n7\tconst v7 = 7; // line 7\n</attached_file>');
    expect(sent).toContain('<attached_file path="index.js" lines="20-24" total_lines="40" source="selection">\n20\tconst v20');
    expect(sent).not.toContain('line 10');
    expect(sent.indexOf('What do these lines do?')).toBeLessThan(sent.indexOf('<attached_context>'));
    // Under the message: what it carried; above the composer: nothing left of them.
    expect(await sentChips(chat)).toEqual(['index.js:3–7', 'index.js:20–24']);
    expect((await chipTexts(chat)).filter((t) => !t.includes('selection') && !t.includes('current file'))).toEqual([]);

    // The next message: the added chips are gone (the active editor's selection still rides along, as its own chip).
    model.script({ text: 'Still constants.' });
    await sendMessage(chat, 'And the next message?');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Still constants.');
    const next = userMessage(model, 'And the next message?');
    expect(next).not.toContain('source="selection"');
    expect(next).not.toContain('lines="3-7"');
  });

  test('the active editor rides along (the lines in view), and leaving it out sends none', async () => {
    const { page } = workbench;
    const chat = await openPeonView(page);
    await startNewChat(page);
    await openFile(page, 'index.js');
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js current file ×']);

    // Without a selection the context menu's Peon submenu offers only the file's fix; Add Selection (by its key) adds the file.
    await page.locator('.editor-instance .monaco-editor .view-line', { hasText: /line\s2$/ }).click({ button: 'right' });
    await page.locator('.context-view .monaco-menu').getByRole('menuitem', { name: 'Peon' }).hover();
    await page.locator('.context-view .monaco-menu').getByRole('menuitem', { name: 'Fix Problems in File' }).waitFor({ timeout: UI_WAIT });
    expect(await peonItems(page)).toEqual(['Fix Problems in File']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+Alt+K');
    // The file's own chip; the active editor's steps aside for it.
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js ×']);
    await chat.getByRole('button', { name: 'Remove index.js' }).click();
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js current file ×']);

    model.script({ text: 'A list of constants.' });
    await sendMessage(chat, 'What is in this file?');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('A list of constants.');
    expect(userMessage(model, 'What is in this file?')).toMatch(/<attached_file path="index\.js" lines="1-\d+" total_lines="40" source="editor view">\nThe file open in the editor: the lines in view\. Read index\.js for the rest\.\n\n1\tconst v1 = 1;/);
    expect(await sentChips(chat)).toEqual(['index.js']);

    await chat.getByRole('button', { name: /^Leave out the current file/ }).click();
    expect(await chipTexts(chat)).toEqual(['+ index.js']);
    model.script({ text: 'Without the file.' });
    await sendMessage(chat, 'A question about nothing in particular');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Without the file.');
    expect(userMessage(model, 'A question about nothing in particular')).not.toContain('<attached_context>');
    await chat.getByRole('button', { name: /^Attach the current file/ }).click();
  });

  test('Explain Selection sends a message asking to explain the selection, with it', async () => {
    const { page } = workbench;
    await openFile(page, 'index.js');
    await selectLines(page, 5, 6);
    model.script({ text: 'Two constants, v5 and v6.' });
    await runCommand(page, 'Peon: Explain Selection');
    const chat = await openPeonView(page);
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Two constants, v5 and v6.');
    const asked = 'Explain what the selected code in index.js (lines 5–6) does.';
    expect(await chat.getByRole('article', { name: 'You' }).last().textContent()).toBe(asked);
    expect(await sentChips(chat)).toEqual(['index.js:5–6']);
    expect(userMessage(model, asked)).toContain('<attached_file path="index.js" lines="5-6" total_lines="40" source="selection">\n5\tconst v5 = 5; // line 5\n6\tconst v6 = 6; // line 6\n</attached_file>');
  });

  test('Fix Problems in File: the JSON syntax error and the line it points at; then the Quick Fix "Fix with Peon" on it', async () => {
    const { page } = workbench;
    await openFile(page, 'broken.json');
    // VS Code's JSON support reports the missing comma (no extension needed).
    await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ timeout: UI_WAIT });
    model.script({ text: 'Add a comma after "demo".' });
    await runCommand(page, 'Peon: Fix Problems in File');
    const chat = await openPeonView(page);
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Add a comma after "demo".');
    const asked = 'Fix the problem VS Code reports in broken.json.';
    expect(await chat.getByRole('article', { name: 'You' }).last().textContent()).toBe(asked);
    expect(await sentChips(chat)).toEqual(['broken.json · 1 problem']);
    const fix = userMessage(model, asked);
    expect(fix).toMatch(/<attached_problems path="broken\.json" count="1">\nProblems VS Code reports:\n3:3 error: Expected comma[^\n]*\n\nThe lines they point at:\n\n3\t {2}"version": "1\.0\.0"\n<\/attached_problems>/);

    // The Quick Fix on the problem itself: the same fix, for that problem.
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+G');
    await page.keyboard.type('3:5');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+.');
    const quickFix = page.locator('.action-widget').getByText('Fix with Peon', { exact: true });
    await quickFix.waitFor({ timeout: UI_WAIT });
    await page.screenshot({ path: path.join(shots, 'peon-editor-quick-fix.png') });
    model.script({ text: 'Fixed by adding the comma.' });
    // Chosen with the keyboard, as the menu opened by Ctrl+. is used.
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 10 && (await focused.textContent()) !== 'Fix with Peon'; i++) await page.keyboard.press('ArrowDown');
    expect(await focused.textContent()).toBe('Fix with Peon');
    await page.keyboard.press('Enter');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Fixed by adding the comma.');
    const one = (await chat.getByRole('article', { name: 'You' }).last().textContent()) ?? '';
    expect(one).toMatch(/^Fix this problem VS Code reports in broken\.json: 3:3 error: Expected comma/);
    expect(await sentChips(chat)).toEqual(['broken.json:3 · 1 problem']);
    expect(userMessage(model, one)).toMatch(/<attached_problems path="broken\.json" count="1">\nProblems VS Code reports at lines 3–3:\n3:3 error: Expected comma/);
  });

  test('@ in the composer: a fuzzy picker of workspace files and folders, ignored ones left out; the picked file rides along', async () => {
    const { page } = workbench;
    const chat = await openPeonView(page);
    await startNewChat(page);
    const composer = chat.getByRole('textbox', { name: 'Message Peon' });
    await composer.click();
    await composer.pressSequentially('Summarise @ind');
    const picker = chat.getByRole('listbox', { name: 'Files and folders' });
    const offered = async (): Promise<string[]> => (await picker.getByRole('option').allTextContents().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
    // Best first; the ignored ones (dist/ in .gitignore, private/ in .peonignore) are not offered.
    await expect.poll(async () => (await offered()).slice(0, 2), { timeout: UI_WAIT }).toEqual(['· index.js', '· indexer.js src']);
    expect((await offered()).filter((o) => /dist|private|bundle|notes/.test(o))).toEqual([]);
    // Typed out, an ignored file's name finds nothing.
    await composer.pressSequentially('ex.b');
    await expect.poll(async () => picker.getByRole('option').count().catch(() => 0), { timeout: UI_WAIT }).toBe(0);
    for (let i = 0; i < 4; i++) await composer.press('Backspace');
    await picker.getByRole('option').first().waitFor({ timeout: UI_WAIT });
    await composer.press('Enter');
    expect(await composer.inputValue()).toBe('Summarise @index.js ');
    expect(await chipTexts(chat)).toContain('index.js ×');

    model.script({ text: 'Forty constants.' });
    await composer.press('Enter');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Forty constants.');
    const sent = userMessage(model, 'Summarise @index.js');
    expect(sent).toContain('<attached_file path="index.js" lines="1-40" total_lines="40" source="file">\n1\tconst v1 = 1; // line 1\n');
    expect(sent).toContain('40\tconst v40 = 40; // line 40\n</attached_file>');
  });

  test.each(['Dark Modern', 'Light Modern'])('screenshots: the chips (and the active editor\'s), a sent message, the @ picker, in %s', async (theme) => {
    const { page } = workbench;
    const name = theme.split(' ')[0]!.toLowerCase();
    await pickColorTheme(page, theme);
    const chat = await openPeonView(page);
    await startNewChat(page);
    await openFile(page, 'index.js');
    await selectLines(page, 3, 7);
    await page.keyboard.press('Control+Alt+K');
    await openFile(page, 'broken.json');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['broken.json current file ×', 'index.js:3–7 ×']);
    model.script({ text: 'Lines 3 to 7 declare v3 to v7.' });
    await sendMessage(chat, 'What do these lines do?');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('Lines 3 to 7 declare v3 to v7.');
    expect(await sentChips(chat)).toEqual(['index.js:3–7', 'broken.json']);
    await openFile(page, 'index.js');
    await selectLines(page, 20, 24);
    await page.keyboard.press('Control+Alt+K');
    await openFile(page, 'broken.json');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['broken.json current file ×', 'index.js:20–24 ×']);
    await page.screenshot({ path: path.join(shots, `peon-editor-context-chips-${name}.png`) });
    const composer = chat.getByRole('textbox', { name: 'Message Peon' });
    await composer.click();
    await composer.pressSequentially('and @ind');
    await chat.getByRole('listbox', { name: 'Files and folders' }).getByRole('option').first().waitFor({ timeout: UI_WAIT });
    await page.screenshot({ path: path.join(shots, `peon-editor-at-picker-${name}.png`) });
    await composer.press('Escape');
    await composer.fill('');
    await chat.getByRole('button', { name: 'Remove index.js, lines 20–24' }).click();
  });
});

describe('Restricted Mode', () => {
  let model: Model;
  let workbench: Workbench;

  beforeAll(async () => {
    model = await startModelServer();
    workbench = await openPeonWorkbench(FILES, { 'security.workspace.trust.enabled': true, 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
  });

  afterAll(async () => {
    await workbench?.close();
    await model?.close();
  });

  test('the chips still work (they are reads); what the model asks to run does not run', async () => {
    const { page } = workbench;
    await page.getByRole('button', { name: "No, I don't trust the authors" }).click({ timeout: UI_WAIT });
    const chat = await openPeonView(page);
    await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
    await openFile(page, 'index.js');
    await selectLines(page, 3, 4);
    await page.keyboard.press('Control+Alt+K');
    await expect.poll(() => chipTexts(chat), { timeout: UI_WAIT }).toEqual(['index.js:3–4 ×']);

    const marker = path.join(workbench.workspace, 'ran.txt');
    model.script({ toolCalls: [{ id: 'b1', name: 'bash', arguments: JSON.stringify({ command: `touch ${marker}`, description: 'try to run' }) }] }, { text: 'I cannot run commands here.' });
    await sendMessage(chat, 'Run something about these lines');
    await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toContain('I cannot run commands here.');
    expect(userMessage(model, 'Run something about these lines')).toContain('<attached_file path="index.js" lines="3-4" total_lines="40" source="selection">\n3\tconst v3 = 3;');
    const offered = ((model.requests.find((r) => JSON.stringify(r.body).includes('Run something about these lines'))?.body as { tools?: { function: { name: string } }[] })?.tools ?? []).map((t) => t.function.name);
    expect(offered).not.toContain('bash');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
