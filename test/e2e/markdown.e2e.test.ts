import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, runCommand, sendMessage, setSideBarWidth, UI_WAIT, type Workbench } from './workbench';

// The walkthrough's problem 13, as it was found: a final Markdown answer (a heading, a
// 27-item ordered list, a task list, a code block) looked at in the light and dark
// themes at 300 px; then its code block copied and inserted at the cursor, and a
// `file:line` in it clicked. The answer streams from a scripted model server on loopback.
const CODE = [
  'export function isIgnored(path: string, rules: string[]): boolean {',
  '  // The last matching rule wins, as in .gitignore.',
  `  return rules.some((rule) => path.startsWith(rule)) && path.length > 0; // ${'a long comment that runs past the panel '.repeat(2)}`,
  '}',
].join('\n');
const ITEMS = Array.from({ length: 27 }, (_, i) => `${i + 1}. Line item number ${i + 1}: the rule at position ${i + 1} is compiled and cached.`);
const ANSWER = [
  '## How the rules are applied',
  '',
  'The matcher lives in `src/rules.ts:12`; ../outside.txt:1 is not part of the workspace.',
  '',
  ...ITEMS,
  '',
  '- [x] compile the rules once',
  '- [ ] cache negated patterns',
  '',
  '```ts',
  CODE,
  '```',
].join('\n');
const RULES = Array.from({ length: 20 }, (_, i) => `export const rule${i + 1} = ${i + 1};`).join('\n') + '\n';

let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
let chat: FrameLocator;

const shots = path.join(artifactsDir, 'e2e');
const answer = () => chat.getByRole('article', { name: 'Peon' }).last();

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(
    { 'src/rules.ts': RULES, 'notes.txt': 'Notes:\n' },
    { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl },
    { showScrollbars: true },
  );
  fs.writeFileSync(path.join(workbench.workspace, '..', 'outside.txt'), 'not in the workspace\n');
  fs.mkdirSync(shots, { recursive: true });
  model.script({ text: ANSWER });
  chat = await openPeonView(workbench.page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await sendMessage(chat, 'How are the ignore rules applied?');
  await answer().locator('.code-block .hl-keyword').first().waitFor({ timeout: UI_WAIT });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

/** What the answer looks like in the current theme: the colours and sizes a person would notice. */
async function answerLooks() {
  return answer().evaluate((article) => {
    const view = article.ownerDocument.defaultView!;
    const style = (el: unknown) => view.getComputedStyle(el as never);
    const block = article.querySelector('.code-block')!;
    const pre = article.querySelector('pre.code-body')!;
    const ol = article.querySelector('ol')!;
    const probe = article.ownerDocument.createElement('span');
    probe.textContent = '27.\u00a0';
    ol.appendChild(probe);
    const marker = probe.getBoundingClientRect().width;
    probe.remove();
    return {
      panel: style(article.ownerDocument.body).backgroundColor,
      block: style(block).backgroundColor,
      border: style(block).borderTopColor,
      prose: style(article).color,
      keyword: style(article.querySelector('.hl-keyword')).color,
      comment: style(article.querySelector('.hl-comment')).color,
      listRoom: parseFloat(style(ol).paddingLeft) - marker,
      items: ol.querySelectorAll(':scope > li').length,
      boxes: Array.from(article.querySelectorAll('li input[type="checkbox"]'), (b: { checked: boolean; disabled: boolean }) => `${b.checked}/${b.disabled}`),
      scroll: { width: pre.scrollWidth, client: pre.clientWidth, bar: pre.offsetHeight - pre.clientHeight },
      label: article.querySelector('.code-lang')?.textContent,
    };
  });
}

test.each([
  ['Light Modern', 'light'],
  ['Dark Modern', 'dark'],
  ['Dark High Contrast', 'high-contrast'],
])('the final answer in %s at 300 px: a distinct, highlighted code block, every list number, task boxes', async (theme, name) => {
  const { page } = workbench;
  await pickColorTheme(page, theme);
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain(`vscode-${name}`);
  await setSideBarWidth(page, 300);
  const looks = await answerLooks();
  // Problem 13: in Light Modern the block had the side bar's own colour. (High contrast
  // draws both black: there the block's border in the contrast colour sets it apart.)
  if (name !== 'high-contrast') expect(looks.block).not.toBe(looks.panel);
  expect(looks.border).not.toBe('rgba(0, 0, 0, 0)');
  expect(looks.border).not.toBe(looks.panel);
  expect(looks.keyword).not.toBe(looks.prose);
  expect(looks.label).toBe('ts');
  expect(looks.items).toBe(27);
  expect(looks.listRoom).toBeGreaterThan(0);
  expect(looks.boxes).toEqual(['true/true', 'false/true']);
  expect(looks.scroll.width).toBeGreaterThan(looks.scroll.client);
  expect(looks.scroll.bar).toBeGreaterThan(0);

  const sidebar = page.locator('.part.sidebar');
  // Pinned to the end: the list's last numbers, the task list and the code block.
  await sidebar.screenshot({ path: path.join(shots, `markdown-answer-${name}-300.png`) });
  // And from the top of the answer: the heading, the file link, the list's first numbers.
  await chat.locator('.transcript').evaluate((list) => list.scrollTo({ top: 0 }));
  await chat.getByRole('heading', { name: 'How the rules are applied' }).waitFor({ timeout: UI_WAIT });
  await sidebar.screenshot({ path: path.join(shots, `markdown-answer-${name}-300-top.png`) });
  await chat.locator('.transcript').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
  if (name === 'light') {
    await setSideBarWidth(page, 200);
    await chat.locator('.transcript').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await answer().locator('.code-block').scrollIntoViewIfNeeded();
    await sidebar.screenshot({ path: path.join(shots, 'markdown-answer-light-200.png') });
    await setSideBarWidth(page, 300);
  }
});

test('Copy puts the code on the clipboard; Insert at Cursor puts it into the open editor, and says so when none is open', async () => {
  const { page } = workbench;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const block = answer().getByRole('group', { name: 'Code block, ts' });
  await block.getByRole('button', { name: 'Copy' }).click();
  await block.getByRole('button', { name: 'Copied' }).waitFor({ timeout: UI_WAIT });
  const clipboard = () => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
  await expect.poll(clipboard, { timeout: UI_WAIT }).toBe(CODE);

  // Insert at Cursor with no editor open: VS Code says so, nothing is written.
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tab').first().waitFor({ state: 'detached', timeout: UI_WAIT });
  await block.getByRole('button', { name: 'Insert at Cursor' }).click();
  await page.locator('.notification-toast', { hasText: 'Insert at Cursor: no editor is open' }).waitFor({ timeout: UI_WAIT });

  // With notes.txt open and the cursor at its end, the code goes there.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget .quick-input-box input.input').fill('notes.txt');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes.txt' }).first().click();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  await block.getByRole('button', { name: 'Insert at Cursor' }).click();
  const lines = page.locator('.editor-instance .monaco-editor .view-lines').first();
  await expect.poll(async () => (await lines.textContent())?.replace(/\u00a0/g, ' '), { timeout: UI_WAIT }).toContain('export function isIgnored(path: string');
  // The cursor is after the inserted code, and the editor has the focus again: saving is one keystroke.
  await expect.poll(() => page.locator('#status\\.editor\\.selection').textContent(), { timeout: UI_WAIT }).toContain(`Ln ${CODE.split('\n').length + 1}, Col 2`);
  await page.screenshot({ path: path.join(shots, 'markdown-inserted-at-cursor.png') });
  await page.keyboard.press('Control+S');
  await expect.poll(() => fs.readFileSync(path.join(workbench.workspace, 'notes.txt'), 'utf8'), { timeout: UI_WAIT }).toBe(`Notes:\n${CODE}`);
});

test('a `file:line` in the answer opens the file at that line; a path outside the workspace opens nothing', async () => {
  const { page } = workbench;
  await chat.locator('.transcript').evaluate((list) => list.scrollTo({ top: 0 }));
  await answer().getByRole('button', { name: '../outside.txt:1' }).click();
  await answer().getByRole('button', { name: 'src/rules.ts:12' }).click();
  await page.locator('.tab.active', { hasText: 'rules.ts' }).waitFor({ timeout: UI_WAIT });
  await expect.poll(() => page.locator('#status\\.editor\\.selection').textContent(), { timeout: UI_WAIT }).toContain('Ln 12, Col 1');
  // The outside file was asked for first, and refused.
  expect(await page.locator('.tab', { hasText: 'outside.txt' }).count()).toBe(0);
  await page.screenshot({ path: path.join(shots, 'markdown-file-link-opened.png') });
});
