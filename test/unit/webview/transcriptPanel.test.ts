// The transcript in the built webview (headless Chromium, the extension's CSP, a scripted
// host): it follows the conversation (walkthrough #2), says it is working and retrying
// (#3), shows tool calls as sentences (#4), and says what streams in politely, in batches.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

const configured = { state: 'configured', provider: 'openai', model: 'fake-model' } as const;
type View = Awaited<ReturnType<typeof openStandaloneWebview>>;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

/** A conversation of `count` rows: questions and answers a few lines long. */
const conversation = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? { kind: 'user', id: `u${i}`, text: `Question ${i}: what does step ${i} do?` } : { kind: 'assistant', id: `a${i}`, text: `Step ${i} **parses** the input.\n\n- it reads the config\n- it writes the result\n\nThen it returns.` },
  );

/** Where the transcript is scrolled: at its end or not, and the jump control. */
async function scroll(page: Page): Promise<{ atEnd: boolean; top: number }> {
  return page.evaluate(`(() => { const t = document.querySelector('.transcript'); return { atEnd: t.scrollTop + t.clientHeight >= t.scrollHeight - 8, top: t.scrollTop }; })()`);
}

/** Whether the element matched by `selector` (the last one) is inside the transcript's visible box. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const list = document.querySelector('.transcript').getBoundingClientRect();
    const all = document.querySelectorAll(${JSON.stringify(selector)});
    const box = all[all.length - 1]?.getBoundingClientRect();
    return !!box && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
  })()`);
}

/** Scrolls up with the mouse wheel over the transcript, as a person does. */
async function wheelUp(page: Page, pixels = 800): Promise<void> {
  const box = await page.locator('.transcript').boundingBox();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await page.mouse.wheel(0, -pixels);
}

async function opened(width = 320, height = 560): Promise<View> {
  return openStandaloneWebview(browser, { width, height });
}

describe('the transcript follows the conversation', () => {
  test('sending scrolls to your message even when scrolled up; scrolled up, "Jump to latest" appears and brings you back', async () => {
    const view = await opened();
    const { page } = view;
    await view.send({ type: 'init', entries: conversation(60), model: configured });
    await page.locator('.message.assistant', { hasText: 'Step 59' }).waitFor();
    await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    expect(await jump.count()).toBe(0);

    await wheelUp(page);
    await jump.waitFor();
    expect((await scroll(page)).atEnd).toBe(false);
    // Scrolled up, new steps do not pull the view down.
    const reading = (await scroll(page)).top;
    await view.send({ type: 'append', entry: { kind: 'assistant', id: 'a60', text: 'A step arrived while you read.' } });
    await page.locator('.row').last().waitFor();
    expect(await inView(page, '.message.assistant')).toBe(false);
    expect((await scroll(page)).top).toBe(reading);
    expect(await jump.isVisible()).toBe(true);

    // Sending (the host appends your message): back to the end, your message in view.
    await view.send({ type: 'append', entry: { kind: 'user', id: 'u61', text: 'Now make sure the dependencies are fine.' } });
    await expect.poll(() => inView(page, '.message.user')).toBe(true);
    expect(await page.locator('.message.user').last().textContent()).toBe('Now make sure the dependencies are fine.');
    await jump.waitFor({ state: 'detached' });

    // The control is a button reached by the keyboard: Enter on it returns to the end, and the focus stays in the transcript.
    await wheelUp(page);
    await jump.waitFor();
    await jump.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    await jump.waitFor({ state: 'detached' });
    expect(await page.evaluate(`document.activeElement.classList.contains('transcript')`)).toBe(true);
    expect(view.violations).toEqual([]);
    await page.close();
  }, 60_000);

  test('at the end, the latest step stays in view when an approval card opens below, while text streams, and when the turn ends', async () => {
    const view = await opened(320, 800);
    const { page } = view;
    await view.send([{ type: 'init', entries: conversation(30), model: configured }, { type: 'busy', busy: true }]);
    await page.locator('.message.assistant', { hasText: 'Step 29' }).waitFor();
    await view.send([
      { type: 'append', entry: { kind: 'user', id: 'u30', text: 'Reinstall the dependencies.' } },
      { type: 'append', entry: { kind: 'tool', id: 't31', name: 'bash', args: '{"command":"rm -rf node_modules && npm install"}', status: 'running', output: '', headline: 'Run `rm -rf node_modules && npm install`', detail: 'Reinstall dependencies from scratch' } },
      { type: 'tool', id: 't31', status: 'waiting', output: '' },
    ]);
    const diff = ['--- a/x', '+++ b/x', '@@ -0,0 +1,6 @@', ...Array.from({ length: 6 }, (_, i) => `+line ${i}`)].join('\n');
    const card = { id: 'req-1', tool: 'write', risk: 'filesystem', summary: { kind: 'file-change', path: 'x', operation: 'create', diff, reasons: [] }, source: 'default for write: semi-ask', reasons: ['it changes files'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
    const before = await page.locator('.transcript').evaluate((t) => (t as unknown as { clientHeight: number }).clientHeight);
    await view.send({ type: 'approval', card });
    await page.getByRole('group', { name: 'Approval: Create x' }).waitFor();
    // The card took room from the transcript, and the step it belongs to is still in view, with the message above it.
    await expect.poll(() => page.locator('.transcript').evaluate((t) => (t as unknown as { clientHeight: number }).clientHeight)).toBeLessThan(before);
    await expect.poll(() => inView(page, '.tool-card')).toBe(true);
    await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    // The card says it waits for you; the working line makes no room for saying it again.
    expect(await page.locator('.working').count()).toBe(0);

    // Answered: the card goes, the turn streams a long answer fast, and ends.
    await view.send([{ type: 'approvalSettled', id: 'req-1' }, { type: 'tool', id: 't31', status: 'ok', output: 'added 12 packages', headline: 'Ran `rm -rf node_modules && npm install` · exit 0', durationMs: 4200 }]);
    await view.send({ type: 'append', entry: { kind: 'assistant', id: 'a32', text: '' } });
    const answer = `## Result\n\n${Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of the answer, long enough to wrap at this width.`).join('\n\n')}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe last paragraph.`;
    await view.send([...answer].map((ch) => ({ type: 'delta', id: 'a32', text: ch })));
    await view.send({ type: 'busy', busy: false });
    await page.locator('.message.assistant p', { hasText: 'The last paragraph.' }).waitFor();
    await expect.poll(() => inView(page, '.message.assistant p')).toBe(true);
    await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    await page.close();
  }, 60_000);

  test('at the end, the list shrinking and then growing before its scroll event (the turn ends as the last words arrive) is no scroll up', async () => {
    const view = await opened(320, 500);
    const { page } = view;
    await view.send([{ type: 'init', entries: conversation(20), model: configured }, { type: 'busy', busy: true }, { type: 'append', entry: { kind: 'assistant', id: 'a20', text: 'Working on it.' } }]);
    await page.locator('.working').waitFor();
    await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    const more = Array.from({ length: 8 }, (_, i) => `\n\nParagraph ${i} of the end of the answer, long enough to wrap at this width.`).join('');
    for (let round = 0; round < 5; round++) {
      // The working line goes (the browser pulls the list up into its new bounds) and the answer grows, in one frame.
      await page.evaluate(`new Promise((done) => requestAnimationFrame(() => {
        window.postMessage({ type: 'busy', busy: false }, '*');
        window.postMessage({ type: 'delta', id: 'a20', text: ${JSON.stringify(more)} }, '*');
        setTimeout(done, 0);
      }))`);
      await page.locator('.message.assistant p', { hasText: 'Paragraph 7' }).last().waitFor();
      await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
      expect(await page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0);
      await view.send({ type: 'busy', busy: true });
      await page.locator('.working').waitFor();
      await expect.poll(async () => (await scroll(page)).atEnd).toBe(true);
    }
    await page.close();
  }, 60_000);
});

describe('while Peon works', () => {
  test('a working indicator with the elapsed time; a retry counts down with its attempt; Stop stays; it ends with the turn', async () => {
    const view = await opened();
    const { page } = view;
    await view.send([{ type: 'init', entries: [], model: configured }, { type: 'append', entry: { kind: 'user', id: 'e1', text: 'Think hard about this.' } }, { type: 'busy', busy: true }]);
    const working = page.locator('.working');
    await expect.poll(() => working.textContent()).toMatch(/^\s*Waiting for the model\s*0 s\s*$/);
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    // The seconds go on while nothing arrives.
    await expect.poll(() => working.locator('.working-elapsed').textContent(), { timeout: 10_000 }).toMatch(/^[1-9]\d* s$/);

    await view.send({ type: 'retry', attempt: 1, delayMs: 4000, error: 'openai could not be reached: Connection error.' });
    await expect.poll(() => working.locator('.working-label').textContent()).toMatch(/^Retrying in [34] s · attempt 2$/);
    expect(await working.locator('.working-error').textContent()).toBe('openai could not be reached: Connection error.');
    expect(await page.locator('.live-status').textContent()).toBe('');
    await expect.poll(() => page.locator('.live-status').textContent(), { timeout: 10_000 }).toBe('The model request failed; retrying in 4 seconds, attempt 2.');

    // The next attempt answers: the countdown ends, and the indicator says what goes on.
    await view.send([{ type: 'append', entry: { kind: 'assistant', id: 'e2', text: '' } }, { type: 'delta', id: 'e2', text: 'Here is ' }]);
    await expect.poll(() => working.locator('.working-label').textContent()).toBe('Writing');
    expect(await working.locator('.working-error').count()).toBe(0);
    await view.send({ type: 'append', entry: { kind: 'tool', id: 'e3', name: 'read', args: '{"path":"a.js"}', status: 'running', output: '', headline: 'Read a.js' } });
    await expect.poll(() => working.locator('.working-label').textContent()).toBe('Working');
    await view.send({ type: 'tool', id: 'e3', status: 'waiting', output: '' });
    await working.waitFor({ state: 'detached' });
    await view.send({ type: 'tool', id: 'e3', status: 'running', output: '' });
    await working.waitFor();
    await view.send({ type: 'busy', busy: false });
    await working.waitFor({ state: 'detached' });
    await page.close();
  }, 60_000);
});

describe('tool cards read as sentences', () => {
  const output = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i + 1)).join('\n');
  const diff = ['--- a/index.js', '+++ b/index.js', '@@ -1,40 +1,40 @@', ...Array.from({ length: 20 }, (_, i) => `-old ${i}`), ...Array.from({ length: 20 }, (_, i) => `+new ${i}`)].join('\n');
  const cards = [
    { kind: 'tool', id: 't1', name: 'read', args: '{"path":"index.js"}', status: 'ok', output: output(40, (i) => `${i}\tline ${i}`), headline: 'Read index.js · lines 1–40', path: 'index.js', durationMs: 12 },
    { kind: 'tool', id: 't2', name: 'grep', args: '{"pattern":"makeArray"}', status: 'ok', output: output(40, (i) => `index.js:${i}:const a${i} = makeArray(${i});`), headline: 'Searched /makeArray/ · 40 matches', durationMs: 30 },
    { kind: 'tool', id: 't3', name: 'edit', args: '{"path":"index.js"}', status: 'ok', output: 'Edited index.js: 1 replacement.', headline: 'Edited index.js +20 −20', path: 'index.js', diff, durationMs: 40 },
    { kind: 'tool', id: 't4', name: 'bash', args: '{"command":"npm test"}', status: 'error', output: output(50, (i) => (i === 7 ? '    at Object.<anonymous> (test/index.test.js:12:5)' : `test output ${i}`)), headline: 'Ran `npm test` · exit 1', detail: 'Run the unit tests', durationMs: 4200 },
    { kind: 'tool', id: 't5', name: 'write', args: '{"path":"denied.txt"}', status: 'denied', output: '', headline: 'Write denied.txt', detail: 'Denied by you: not in this folder', durationMs: 0 },
    { kind: 'tool', id: 't6', name: 'bash', args: '{"command":"sleep 100"}', status: 'cancelled', output: '', headline: 'Run `sleep 100`', durationMs: 0 },
    { kind: 'tool', id: 't7', name: 'everything__echo', title: 'everything › echo', args: 'message="hi"', status: 'running', output: '' },
  ];

  test('sentence, icon, status and duration; denied and cancelled as such; the diff stays; output collapsed at 15 lines, a command at 30, the diff at 30 rows', async () => {
    const view = await opened(420, 1600);
    const { page } = view;
    await view.send({ type: 'init', entries: cards, model: configured });
    const all = page.locator('.tool-card');
    await expect.poll(() => all.count()).toBe(7);
    expect(await all.locator('.tool-headline').allTextContents()).toEqual([
      'Read index.js · lines 1–40',
      'Searched /makeArray/ · 40 matches',
      'Edited index.js +20 −20',
      'Ran `npm test` · exit 1',
      'Write denied.txt',
      'Run `sleep 100`',
      'everything › echo message="hi"',
    ]);
    expect(await all.locator('.tool-status').allTextContents()).toEqual(['done', 'done', 'done', 'failed', 'denied', 'cancelled', 'running']);
    expect(await all.locator('.tool-detail').allTextContents()).toEqual(['Run the unit tests', 'Denied by you: not in this folder']);
    // Seconds where they matter: the slow command's, not the 12 ms read's.
    expect(await all.locator('.tool-duration').allTextContents()).toEqual(['4.2 s']);
    // A codicon per kind, from VS Code's own icon font, loaded from the extension.
    expect(await page.evaluate(`(async () => { await document.fonts.ready; return [...document.fonts].filter((f) => f.family.includes('codicon')).map((f) => f.status); })()`)).toEqual(['loaded']);
    expect(await all.first().locator('.tool-kind .codicon').evaluate((e) => (e as unknown as { dataset: { glyph: string } }).dataset.glyph.codePointAt(0))).toBe(0xea7b);

    // The applied change is shown open, 30 rows, then "Show all".
    const edit = page.getByRole('group', { name: 'Tool call edit' });
    expect(await edit.getByRole('button', { name: /Edited index\.js/ }).getAttribute('aria-expanded')).toBe('true');
    expect(await edit.locator('.diff-row').count()).toBe(30);
    await edit.getByRole('button', { name: 'Show all 41 rows' }).click();
    expect(await edit.locator('.diff-row').count()).toBe(41);

    // Output: closed until asked; 15 lines, then all.
    const grep = page.getByRole('group', { name: 'Tool call grep' });
    expect(await grep.locator('.tool-body').isVisible()).toBe(false);
    await grep.getByRole('button', { name: /Searched/ }).click();
    const lines = async (card: typeof grep) => ((await card.locator('.tool-output').textContent()) ?? '').split('\n').length;
    expect(await lines(grep)).toBe(15);
    await grep.getByRole('button', { name: 'Show all 40 lines' }).click();
    expect(await lines(grep)).toBe(40);
    await grep.getByRole('button', { name: 'Show less' }).click();
    expect(await lines(grep)).toBe(15);

    const bash = page.getByRole('group', { name: 'Tool call bash' }).first();
    await bash.getByRole('button', { name: /Ran `npm test`/ }).click();
    expect(await lines(bash)).toBe(30);
    await bash.getByRole('button', { name: 'Show all 50 lines' }).click();
    expect(await lines(bash)).toBe(50);

    // Paths open the file: the card's, and `path:line` in output.
    await page.getByRole('group', { name: 'Tool call read' }).getByRole('button', { name: 'Open index.js' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'openFile', path: 'index.js' });
    await grep.getByRole('button', { name: 'index.js:3' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'openFile', path: 'index.js', line: 3 });
    await bash.getByRole('button', { name: 'test/index.test.js:12:5' }).click();
    expect((await view.posted()).at(-1)).toEqual({ type: 'openFile', path: 'test/index.test.js', line: 12 });
    expect(view.extraRequests()).toEqual([]);
    expect(view.violations).toEqual([]);
    await page.close();
  }, 60_000);

  test('what a card opened stays open when its row leaves the DOM and comes back (the list is virtualised)', async () => {
    const view = await opened(320, 400);
    const { page } = view;
    await view.send({ type: 'init', entries: [cards[1], ...conversation(80)], model: configured });
    await page.locator('.message.assistant', { hasText: 'Step 79' }).waitFor();
    expect(await page.locator('.tool-card').count()).toBe(0);
    await expect.poll(async () => {
      await page.locator('.transcript').evaluate((t) => (t as unknown as { scrollTo(o: object): void }).scrollTo({ top: 0 }));
      return page.locator('.tool-card').count();
    }).toBe(1);
    await page.getByRole('button', { name: /Searched/ }).click();
    await page.getByRole('button', { name: 'Show all 40 lines' }).waitFor();
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect.poll(() => page.locator('.tool-card').count()).toBe(0);
    await expect.poll(async () => {
      await page.locator('.transcript').evaluate((t) => (t as unknown as { scrollTo(o: object): void }).scrollTo({ top: 0 }));
      return page.locator('.tool-card .tool-body').isVisible();
    }).toBe(true);
    await page.close();
  }, 60_000);

  test('screenshots: the cards at 300 px and 200 px (test-results/)', async () => {
    const out = path.resolve('test-results');
    fs.mkdirSync(out, { recursive: true });
    for (const width of [300, 200]) {
      const view = await opened(width, 1100);
      await view.send([{ type: 'init', entries: [{ kind: 'user', id: 'u0', text: 'Fix makeArray and run the tests.' }, ...cards.slice(1)], model: configured }, { type: 'busy', busy: true }]);
      await view.page.locator('.tool-card').nth(5).waitFor();
      await view.page.screenshot({ path: path.join(out, `transcript-cards-${width}.png`) });
      await view.page.close();
    }
  }, 60_000);
});

describe('what a screen reader hears', () => {
  test('the transcript is no live region; streamed text is said politely, whole sentences at a time, in few updates; history is not read out', async () => {
    const view = await opened();
    const { page } = view;
    await view.send({ type: 'init', entries: [{ kind: 'assistant', id: 'a0', text: 'An old answer from history.' }], model: configured });
    const live = page.locator('.live-status');
    expect(await page.locator('.transcript').getAttribute('aria-live')).toBeNull();
    expect(await live.getAttribute('role')).toBe('status');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    await page.evaluate(`(() => { window.__said = []; new MutationObserver(() => window.__said.push(document.querySelector('.live-status').textContent)).observe(document.querySelector('.live-status'), { subtree: true, childList: true, characterData: true }); })()`);

    await view.send([{ type: 'append', entry: { kind: 'user', id: 'u1', text: 'Explain.' } }, { type: 'busy', busy: true }, { type: 'append', entry: { kind: 'assistant', id: 'a2', text: '' } }]);
    const words = '## Plan\n\nFirst, **read** the `index.js` file. Then search for makeArray. Finally run the tests and report'.split(/(?<= )/);
    await view.send(words.map((text) => ({ type: 'delta', id: 'a2', text })));
    // Whole sentences, without the Markdown marks; the unfinished one waits.
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toBe('Plan First, read the index.js file. Then search for makeArray.');
    await view.send({ type: 'append', entry: { kind: 'tool', id: 't3', name: 'read', args: '{"path":"index.js"}', status: 'running', output: '', headline: 'Read index.js' } });
    await view.send({ type: 'tool', id: 't3', status: 'ok', output: '1\tx', headline: 'Read index.js · lines 1–40' });
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).toBe('Finally run the tests and report Read index.js · lines 1–40.');
    await view.send({ type: 'busy', busy: false });
    const said = (await page.evaluate('window.__said')) as string[];
    expect(said.filter((s) => s !== '').length).toBeLessThanOrEqual(3);
    expect(said.join(' ')).not.toContain('An old answer');
    await page.close();
  }, 60_000);
});
