import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, sendInNewChat, sendMessage, UI_WAIT, type Workbench } from './workbench';

// The transcript in the real VS Code, walked as the UX walkthrough did it (its #2, #3
// and #4): a model slow to its first token and one that fails then retries; a multi-step
// grep → read → edit → bash turn with approval cards, sent while scrolled up; a denied
// call with a message; Stop. The model is the scripted server; the workspace is a small
// copy of the `ignore` package's layout.
const INDEX = [
  '// A simple implementation of make-array',
  'function makeArray (subject) {',
  '  return Array.isArray(subject)',
  '    ? subject',
  '    : [subject]',
  '}',
  '',
  ...Array.from({ length: 60 }, (_, i) => (i === 30 ? 'const rules = makeArray(pattern)' : `// rule ${i}: how a pattern compiles`)),
  'module.exports = { makeArray }',
  '',
].join('\n');
const FILES = {
  'index.js': INDEX,
  'legacy.js': "const { makeArray } = require('./index')\nmodule.exports = (p) => makeArray(p)\n",
  'test.js': "console.log('ignore: 2 passing, 1 failing')\nconsole.log('  1) makeArray wraps a string')\nconsole.log('     at Object.<anonymous> (index.js:3:10)')\nprocess.exit(1)\n",
  'package.json': '{ "name": "ignore-copy", "scripts": { "test": "node test.js" } }\n',
  'README.md': '# ignore\n',
};

let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(FILES, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
  fs.mkdirSync(shots, { recursive: true });
});

// A test that failed leaves no scripted reply to the next.
beforeEach(() => model.reset());

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });
const answers = (chat: FrameLocator) => chat.getByRole('article', { name: 'Peon' });
const card = (chat: FrameLocator, tool: string) => chat.getByRole('group', { name: `Tool call ${tool}` });

/** Whether `target` is wholly inside the transcript's visible box. */
async function inView(chat: FrameLocator, target: Locator): Promise<boolean> {
  const list = await chat.locator('.transcript').boundingBox();
  const box = await target.boundingBox();
  return !!list && !!box && box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

const atEnd = (chat: FrameLocator): Promise<boolean> =>
  chat.locator('.transcript').evaluate((t) => {
    const list = t as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
    return list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  });

/** Drags the side bar's edge so the panel is `width` px wide, as the walkthrough did. */
async function sideBarWidth(page: Page, width: number): Promise<void> {
  const bar = page.locator('.part.sidebar');
  const box = (await bar.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => Math.abs(((await bar.boundingBox())?.width ?? 0) - width), { timeout: UI_WAIT }).toBeLessThanOrEqual(2);
}

async function shot(page: Page, name: string): Promise<void> {
  const bar = (await page.locator('.part.sidebar').boundingBox())!;
  await page.screenshot({ path: path.join(shots, name), clip: { x: 0, y: 0, width: bar.x + bar.width + 8, height: bar.y + bar.height + 24 } });
}

test('#3: a model slow to its first token — the panel says it waits, for how long, and Stop is there', async () => {
  model.script({ text: 'Here is what I think.', hold: true });
  const chat = await sendInNewChat(workbench.page, 'Think hard about this.');
  const working = chat.locator('.working');
  await expect.poll(() => working.locator('.working-label').textContent(), { timeout: UI_WAIT }).toBe('Waiting for the model');
  // Seconds count up while nothing has come (the walkthrough saw a silent panel for 5 s).
  await expect.poll(() => working.locator('.working-elapsed').textContent(), { timeout: UI_WAIT }).toMatch(/^[2-9] s|\d\d s$/);
  expect(await chat.getByRole('button', { name: 'Stop', exact: true }).isVisible()).toBe(true);
  await shot(workbench.page, 'peon-transcript-waiting.png');
  expect(model.release()).toBe(true);
  await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toEqual(['Here is what I think.']);
  await working.waitFor({ state: 'detached', timeout: UI_WAIT });
});

test('#3: a request that fails is retried, and the panel says so as it happens, with the attempt and the countdown', async () => {
  model.script({ status: 503, retryAfter: 3 }, { text: 'Back again.' });
  const chat = await sendInNewChat(workbench.page, 'Are you there?');
  const working = chat.locator('.working');
  // The label and the error read together, while the countdown runs (the retry may come before a second read).
  const shown = () => working.evaluate((el) => [el.querySelector('.working-label')?.textContent, el.querySelector('.working-error')?.textContent]);
  await expect.poll(shown, { timeout: UI_WAIT }).toEqual([expect.stringMatching(/^Retrying in [1-3] s · attempt 2$/), 'openai answered 503: scripted 503']);
  await shot(workbench.page, 'peon-transcript-retrying.png');
  await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toEqual(['Back again.']);
  await working.waitFor({ state: 'detached', timeout: UI_WAIT });
  expect(model.requests.filter((r) => r.url.startsWith('/v1/chat/completions')).length).toBeGreaterThanOrEqual(2);
});

test('#2 and #4: sent while scrolled up, a grep → read → edit → bash turn stays in view, and its steps read as sentences', async () => {
  const { page } = workbench;
  const long = `Here is a long walkthrough of the rule compiler.\n\n${Array.from({ length: 24 }, (_, i) => `**Step ${i + 1}.** This paragraph explains how the ignore rules are compiled into regular expressions, one rule at a time.`).join('\n\n')}`;
  model.script({ text: long });
  const chat = await sendInNewChat(page, 'Explain how rules are compiled, in detail.');
  await chat.locator('.message.assistant', { hasText: 'Step 24.' }).waitFor({ timeout: UI_WAIT });
  await expect.poll(() => atEnd(chat), { timeout: UI_WAIT }).toBe(true);

  // Scroll up to read, as a person does: "Jump to latest" appears.
  const list = (await chat.locator('.transcript').boundingBox())!;
  await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
  await page.mouse.wheel(0, -1500);
  const jump = chat.getByRole('button', { name: 'Jump to latest' });
  await jump.waitFor({ timeout: UI_WAIT });

  model.script(
    call('g1', 'grep', { pattern: 'makeArray' }),
    call('r1', 'read', { path: 'index.js', offset: 1, limit: 40 }),
    call('e1', 'edit', { path: 'index.js', oldString: '// A simple implementation of make-array\n', newString: '// makeArray: wraps a value in an array\n// (arrays are returned as they are)\n' }),
    call('b1', 'bash', { command: 'npm test', description: 'Run the unit tests' }),
    { text: '## Done\n\nThe comment is clearer now.\n\n| check | result |\n|---|---|\n| grep | 6 uses |\n| tests | 1 failing |\n\nThe failing test is in `index.js:3`; it was failing before.' },
  );
  await sendMessage(chat, 'Now make sure makeArray is documented, and run the tests.');
  // Sending brought the view back: your message is in view, and the control is gone.
  const mine = chat.locator('.message.user', { hasText: 'Now make sure makeArray is documented' });
  await expect.poll(() => inView(chat, mine), { timeout: UI_WAIT }).toBe(true);
  await jump.waitFor({ state: 'detached', timeout: UI_WAIT });

  // The edit asks: its step, waiting, is in view above the card (the walkthrough saw an older answer there).
  const approval = chat.getByRole('group', { name: 'Approval: Edit index.js' });
  await approval.waitFor({ timeout: UI_WAIT });
  const edit = card(chat, 'edit');
  await expect.poll(() => edit.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('waiting for approval');
  await expect.poll(() => inView(chat, edit), { timeout: UI_WAIT }).toBe(true);
  expect(await atEnd(chat)).toBe(true);
  expect(await card(chat, 'grep').locator('.tool-headline').textContent()).toBe('Searched /makeArray/ · 6 matches in 3 files');
  expect(await card(chat, 'read').locator('.tool-headline').textContent()).toBe('Read index.js · lines 1–40 of 68');

  // Mid-turn, with the card up: light and dark, 300 px and 200 px (and high contrast at 300 px).
  for (const [theme, name, widths] of [['Light Modern', 'light', [300, 200]], ['Dark Modern', 'dark', [300, 200]], ['Dark High Contrast', 'hc', [300]]] as const) {
    await pickColorTheme(page, theme);
    for (const width of widths) {
      await sideBarWidth(page, width);
      await expect.poll(() => inView(chat, edit), { timeout: UI_WAIT }).toBe(true);
      await shot(page, `peon-transcript-${name}-${width}.png`);
    }
  }
  await sideBarWidth(page, 300);

  await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  // The applied change keeps its diff on the card, and reads as a sentence.
  await expect.poll(() => edit.locator('.tool-headline').textContent(), { timeout: UI_WAIT }).toBe('Edited index.js +2 −1');
  expect(await edit.locator('.diff-row.add').allTextContents()).toEqual(['+// makeArray: wraps a value in an array', '+// (arrays are returned as they are)']);

  const run = chat.getByRole('group', { name: 'Approval: Run a command' });
  await run.waitFor({ timeout: UI_WAIT });
  await run.getByRole('button', { name: 'Approve', exact: true }).click();
  const bash = card(chat, 'bash');
  await expect.poll(() => bash.locator('.tool-headline').textContent(), { timeout: UI_WAIT }).toBe('Ran `npm test` · exit 1');
  expect(await bash.locator('.tool-status').textContent()).toBe('failed');
  expect(await bash.locator('.tool-detail').textContent()).toBe('Run the unit tests');
  expect(await bash.locator('.tool-duration').textContent()).toMatch(/^\d+(\.\d)? s$/);

  // The turn's end is in view: the answer's last paragraph, not 150 px short of it.
  const last = chat.locator('.message.assistant p', { hasText: 'it was failing before' });
  await last.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => inView(chat, last), { timeout: UI_WAIT }).toBe(true);
  expect(await atEnd(chat)).toBe(true);
  await shot(page, 'peon-transcript-turn-end.png');

  // Paths open the file: `path:line` in the command's output, and the read card's file.
  await bash.locator('.tool-toggle').click();
  await bash.getByRole('button', { name: 'index.js:3:10' }).click();
  await page.locator('.tab.active', { hasText: 'index.js' }).waitFor({ timeout: UI_WAIT });
  await page.locator('.statusbar-item', { hasText: /Ln 3, Col 1/ }).waitFor({ timeout: UI_WAIT });
  const chatAgain = await openPeonView(page);
  await card(chatAgain, 'grep').locator('.tool-toggle').click();
  await card(chatAgain, 'grep').getByRole('button', { name: /^legacy\.js:2$/ }).click();
  await page.locator('.tab.active', { hasText: 'legacy.js' }).waitFor({ timeout: UI_WAIT });
  const chatOnceMore = await openPeonView(page);
  await card(chatOnceMore, 'read').getByRole('button', { name: 'Open index.js' }).click();
  await page.locator('.tab.active', { hasText: 'index.js' }).waitFor({ timeout: UI_WAIT });
});

test('#4: a call denied with a message reads "Denied by you: …", not as an error', async () => {
  model.script(call('d1', 'bash', { command: 'rm -rf node_modules package-lock.json && npm install', description: 'Reinstall dependencies from scratch' }), { text: 'Understood, I will not.' });
  const chat = await sendInNewChat(workbench.page, 'Now make sure the dependencies are fine.');
  const approval = chat.getByRole('group', { name: 'Approval: Run a command' });
  await approval.waitFor({ timeout: UI_WAIT });
  await approval.getByRole('textbox', { name: 'Message for Peon with Deny' }).fill('Do not delete node_modules');
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => answers(chat).allTextContents(), { timeout: UI_WAIT }).toEqual(['Understood, I will not.']);
  const denied = card(chat, 'bash');
  expect(await denied.locator('.tool-headline').textContent()).toBe('Run `rm -rf node_modules package-lock.json && npm install`');
  expect(await denied.locator('.tool-status').textContent()).toBe('denied');
  expect(await denied.locator('.tool-detail').textContent()).toBe('Denied by you: Do not delete node_modules');
  expect(await denied.textContent()).not.toContain('error');
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('Do not delete node_modules');
});

test('#4: Stop while a command runs, and while a card waits — both calls read "cancelled"', async () => {
  const { page } = workbench;
  model.script(call('s1', 'bash', { command: 'echo started; sleep 30', description: 'Wait a long time' }));
  const chat = await sendInNewChat(page, 'Run the slow thing.');
  const approval = chat.getByRole('group', { name: 'Approval: Run a command' });
  await approval.waitFor({ timeout: UI_WAIT });
  await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  const running = card(chat, 'bash');
  await running.locator('.tool-toggle').click();
  await expect.poll(() => running.locator('.tool-output').textContent(), { timeout: UI_WAIT }).toContain('started');
  await chat.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(() => running.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('cancelled');
  expect(await running.locator('.tool-headline').textContent()).toBe('Ran `echo started; sleep 30` · stopped');
  await chat.locator('.notice', { hasText: 'Stopped.' }).waitFor({ timeout: UI_WAIT });

  model.script(call('s2', 'bash', { command: 'touch later.txt' }));
  await sendMessage(chat, 'Touch a file.');
  const again = chat.getByRole('group', { name: 'Approval: Run a command' });
  await again.waitFor({ timeout: UI_WAIT });
  await chat.getByRole('button', { name: 'Stop', exact: true }).click();
  const waited = card(chat, 'bash').last();
  await expect.poll(() => waited.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('cancelled');
  expect(await waited.locator('.tool-detail').count()).toBe(0);
  expect(fs.existsSync(path.join(workbench.workspace, 'later.txt'))).toBe(false);
});
