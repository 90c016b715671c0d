// The built webview in headless Chromium (walkthrough #14, #15 and the trash): the history
// view, the empty state's recent chats, the hover actions on messages, the queue and the
// deny message typed in the composer, and the trash list, each checked by what the panel
// shows and what it posts to the host.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const getComputedStyle: (element: any) => { opacity: string };
type Element = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;
const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function open(messages: unknown[] = [], entries: unknown[] = []): Promise<View> {
  const view = await openStandaloneWebview(browser, { width: 320 });
  await view.send([{ type: 'init', entries, model: configured }, ...messages]);
  return view;
}
const postedOf = async (view: View, type: string): Promise<unknown[]> => (await view.posted()).filter((m) => (m as { type: string }).type === type);
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();
const HOUR = 3600_000;
const chat = (n: number, more: Record<string, unknown> = {}) => ({ id: `m3x9k2a-0a1b2${n}`, title: `Chat number ${n}`, createdAt: ago(50 * HOUR), updatedAt: ago(n * HOUR * 3 + 5000), messages: 2 * n, ...more });

describe('the history view', () => {
  test('opens from the header and from Show History; lists title, relative date, messages, cost and the chat shown; Resume, Rename, Export, Delete post their ids', async () => {
    const view = await open();
    await view.page.getByRole('button', { name: 'History', exact: true }).click();
    expect(await postedOf(view, 'listHistory')).toEqual([{ type: 'listHistory', query: '' }]);
    const history = view.page.getByRole('region', { name: 'Chat history' });
    expect(await history.locator('.history-count').textContent()).toBe('loading…');
    await view.send({ type: 'history', query: '', sessions: [chat(1, { cost: 0.0123 }), chat(2), chat(9)], total: 3, titlesOnly: 0, current: chat(1).id });
    const rows = history.getByRole('listitem');
    expect(await rows.count()).toBe(3);
    expect(await history.locator('.history-count').textContent()).toBe('3 chats');
    const first = history.getByRole('listitem', { name: 'Chat Chat number 1' });
    expect(await first.locator('.history-meta').textContent()).toMatch(/^3 hours ago\s*· 2 messages\s*· \$0\.0123\s*· shown now$/);
    // The full date is on hover, in the panel's locale.
    expect(await first.locator('time').getAttribute('title')).toMatch(/\d{4}/);
    expect(await history.getByRole('listitem', { name: 'Chat Chat number 9' }).locator('time').textContent()).toBe('yesterday');

    await first.getByRole('button', { name: 'Rename Chat number 1' }).click();
    const box = first.getByRole('textbox', { name: 'New title' });
    expect(await box.inputValue()).toBe('Chat number 1');
    await box.fill('  Login test:   flaky on CI ');
    await box.press('Enter');
    expect(await postedOf(view, 'renameSession')).toEqual([{ type: 'renameSession', id: chat(1).id, title: 'Login test: flaky on CI' }]);
    // Escape leaves the title as it was.
    await first.getByRole('button', { name: 'Rename Chat number 1' }).click();
    await first.getByRole('textbox', { name: 'New title' }).press('Escape');
    expect(await first.getByRole('textbox').count()).toBe(0);

    await first.getByRole('button', { name: 'Export Chat number 1 as Markdown' }).click();
    await first.getByRole('button', { name: 'Delete Chat number 1' }).click();
    expect(await postedOf(view, 'exportSession')).toEqual([{ type: 'exportSession', id: chat(1).id }]);
    expect(await postedOf(view, 'deleteSession')).toEqual([{ type: 'deleteSession', id: chat(1).id }]);

    // Continuing a chat goes back to the chat (the host then sends it).
    await history.getByRole('button', { name: 'Chat number 2', exact: true }).click();
    expect(await postedOf(view, 'resumeSession')).toEqual([{ type: 'resumeSession', id: chat(2).id }]);
    expect(await history.count()).toBe(0);
    // Back to the chat from the view, and open again from the host (Show History).
    await view.page.getByRole('button', { name: 'History', exact: true }).click();
    await history.getByRole('button', { name: '← Chat' }).click();
    expect(await history.count()).toBe(0);
    await view.send({ type: 'openHistory' });
    await history.waitFor();
    // A new conversation (a chat resumed) closes it.
    await view.send({ type: 'init', entries: [{ kind: 'user', id: 'e1', text: 'resumed' }], model: configured });
    await history.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);

  test('search: asks the host a beat after typing, shows where the words were found, marked, and says when older chats were matched by title only', async () => {
    const view = await open([{ type: 'openHistory' }]);
    const history = view.page.getByRole('region', { name: 'Chat history' });
    await view.send({ type: 'history', query: '', sessions: [chat(1), chat(2)], total: 2, titlesOnly: 0 });
    const search = history.getByRole('searchbox', { name: 'Search chats' });
    await search.pressSequentially('zebra fish', { delay: 10 });
    await expect.poll(() => postedOf(view, 'listHistory')).toContainEqual({ type: 'listHistory', query: 'zebra fish' });
    // Debounced: not one request per key.
    expect((await postedOf(view, 'listHistory')).length).toBeLessThan(6);
    // Until the answer for this query comes, the old list is shown as busy.
    expect(await history.locator('.history-list').getAttribute('aria-busy')).toBe('true');
    await view.send({ type: 'history', query: 'zebra fish', sessions: [chat(2, { snippet: '…check the Zebra fixture for fish please…' })], total: 40, titlesOnly: 12 });
    expect(await history.getByRole('listitem').count()).toBe(1);
    expect(await history.locator('.history-snippet').textContent()).toBe('…check the Zebra fixture for fish please…');
    expect(await history.locator('.history-snippet mark').allTextContents()).toEqual(['Zebra', 'fish']);
    expect(await history.locator('.history-note').textContent()).toBe('12 older chats were matched by title only; keep typing to search their messages too.');
    await search.fill('nothing like it');
    await view.send({ type: 'history', query: 'nothing like it', sessions: [], total: 40, titlesOnly: 0 });
    expect(await history.locator('.history-empty').textContent()).toBe('No chat holds all of these words.');
    await view.page.close();
  }, 30_000);

  test('the empty state lists up to five recent chats to resume with one click, and opens the whole history', async () => {
    const view = await open([{ type: 'recentChats', sessions: [1, 2, 3, 4, 5].map((n) => chat(n)) }]);
    const recent = view.page.getByRole('navigation', { name: 'Recent chats' });
    expect(await recent.getByRole('listitem').count()).toBe(5);
    expect(await view.page.getByText('Ask for a change in this workspace.', { exact: false }).count()).toBe(1);
    await recent.getByRole('button', { name: /^Chat number 3/ }).click();
    expect(await postedOf(view, 'resumeSession')).toEqual([{ type: 'resumeSession', id: chat(3).id }]);
    await recent.getByRole('button', { name: 'All chats…' }).click();
    await view.page.getByRole('region', { name: 'Chat history' }).waitFor();
    // With messages, the transcript takes its place.
    await view.send({ type: 'init', entries: [{ kind: 'user', id: 'e1', text: 'hi' }], model: configured });
    expect(await recent.count()).toBe(0);
    await view.page.close();
  }, 30_000);
});

describe('messages', () => {
  const entries = [
    { kind: 'user', id: 'e1', text: 'Make the **parser** strict.' },
    { kind: 'assistant', id: 'e2', text: 'First answer.' },
    { kind: 'user', id: 'e3', text: 'And the tests?' },
    { kind: 'assistant', id: 'e4', text: '```js\nconst strict = true;\n```\nDone, with `strict`.' },
  ];

  test('hovering a message offers Copy, Edit on yours, Retry on the last answer, and Remember; keyboard focus shows them too', async () => {
    const view = await open([], entries);
    const rows = view.page.locator('.message-row');
    await rows.nth(0).hover();
    const mine = rows.nth(0).getByRole('toolbar', { name: 'Actions on your message' });
    expect(await mine.getByRole('button').allTextContents()).toEqual(['Copy', 'Edit', 'Remember']);
    expect(await mine.evaluate((bar) => getComputedStyle(bar).opacity)).toBe('1');
    // Not hovered, not focused: out of sight (but in the layout, so nothing moves when it shows).
    const other = rows.nth(1).getByRole('toolbar');
    expect(await other.evaluate((bar) => getComputedStyle(bar).opacity)).toBe('0');
    expect(await other.getByRole('button').allTextContents()).toEqual(['Copy', 'Remember']);
    expect(await rows.nth(3).getByRole('toolbar').getByRole('button').allTextContents()).toEqual(['Copy', 'Retry', 'Remember']);
    await rows.nth(3).getByRole('button', { name: "Copy Peon's answer" }).focus();
    expect(await rows.nth(3).getByRole('toolbar').evaluate((bar) => getComputedStyle(bar).opacity)).toBe('1');
    await view.page.keyboard.press('Enter');
    await rows.nth(0).getByRole('button', { name: 'Copy your message' }).click();
    expect(await postedOf(view, 'copyText')).toEqual([
      { type: 'copyText', text: entries[3]!.text },
      { type: 'copyText', text: 'Make the **parser** strict.' },
    ]);
    expect(await rows.nth(0).getByRole('button', { name: 'Copy your message' }).textContent()).toBe('Copied');
    await rows.nth(3).hover();
    await rows.nth(3).getByRole('button', { name: "Retry Peon's answer" }).click();
    expect(await postedOf(view, 'retryMessage')).toEqual([{ type: 'retryMessage', entryId: 'e4' }]);
    await rows.nth(2).hover();
    await rows.nth(2).getByRole('button', { name: 'Remember this message (yours)' }).click();
    expect(await postedOf(view, 'remember')).toEqual([{ type: 'remember', entryId: 'e3' }]);
    // While a turn runs, Edit and Retry wait.
    await view.send({ type: 'busy', busy: true });
    await expect.poll(() => view.page.getByRole('button', { name: /^(Edit|Retry) / }).count()).toBe(0);
    await view.page.close();
  }, 30_000);

  test('the buttons never cover the answer: an answer that starts with a code block keeps its Copy and Insert free', async () => {
    const view = await open([], entries);
    const answer = view.page.locator('.message-row').nth(3);
    await answer.hover();
    const boxes = await answer.evaluate((row) => {
      const rect = (el: Element) => el.getBoundingClientRect();
      const code = [...row.querySelectorAll('.code-head button')].map(rect);
      const actions = [...row.querySelectorAll('.message-actions button')].map(rect);
      const article = rect(row.querySelector('article')!);
      return { code: code.map((r) => [r.left, r.top, r.right, r.bottom]), actions: actions.map((r) => [r.left, r.top, r.right, r.bottom]), articleBottom: article.bottom };
    });
    expect(boxes.code.length).toBeGreaterThan(0);
    const overlaps = (a: number[], b: number[]) => a[0]! < b[2]! && b[0]! < a[2]! && a[1]! < b[3]! && b[1]! < a[3]!;
    for (const a of boxes.actions) {
      expect(a[1]).toBeGreaterThanOrEqual(boxes.articleBottom - 0.5);
      for (const c of boxes.code) expect(overlaps(a, c)).toBe(false);
    }
    // The code block's own buttons still take the click.
    await answer.getByRole('button', { name: /^Copy/ }).first().click();
    expect((await postedOf(view, 'copyText'))[0]).toEqual({ type: 'copyText', text: 'const strict = true;' });
    await view.page.close();
  }, 30_000);

  test('Edit turns your message into a text box; Enter resends the edit, Escape leaves it as it was', async () => {
    const view = await open([], entries);
    const row = view.page.locator('.message-row').nth(2);
    await row.hover();
    await row.getByRole('button', { name: 'Edit your message' }).click();
    const box = row.getByRole('textbox', { name: 'Your message, edited' });
    expect(await box.inputValue()).toBe('And the tests?');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.press('Escape');
    expect(await row.getByRole('article', { name: 'You' }).textContent()).toBe('And the tests?');
    expect(await row.getByRole('button', { name: 'Edit your message' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await row.getByRole('button', { name: 'Edit your message' }).click();
    await row.getByRole('textbox').fill('And the tests, with vitest?');
    await row.getByRole('textbox').press('Enter');
    expect(await postedOf(view, 'editMessage')).toEqual([{ type: 'editMessage', entryId: 'e3', text: 'And the tests, with vitest?' }]);
    await view.page.close();
  }, 30_000);
});

describe('the composer during a turn', () => {
  test('while Peon works, Enter queues the text (the composer says so first); queued messages show under the transcript, removable', async () => {
    const view = await open([{ type: 'busy', busy: true }], [{ kind: 'user', id: 'e1', text: 'Fix it.' }]);
    const composer = view.page.getByRole('textbox', { name: 'Message Peon' });
    expect(await view.page.locator('.composer-intent').count()).toBe(0);
    await composer.fill('also update the README');
    expect(await view.page.locator('.composer-intent').textContent()).toBe('Enter queues your message: Peon reads it at its next step.');
    expect(await composer.getAttribute('aria-describedby')).toBe(await view.page.locator('.composer-intent').getAttribute('id'));
    expect(await view.page.getByRole('button', { name: 'Queue' }).isEnabled()).toBe(true);
    await composer.press('Enter');
    expect(await postedOf(view, 'queueMessage')).toEqual([{ type: 'queueMessage', text: 'also update the README' }]);
    expect(await postedOf(view, 'send')).toEqual([]);
    expect(await composer.inputValue()).toBe('');
    await view.send({ type: 'queue', messages: [{ id: 'q1', text: 'also update the README' }, { id: 'q2', text: 'and the changelog' }] });
    const queued = view.page.getByRole('region', { name: 'Queued messages' });
    expect(await queued.locator('.queued-text').allTextContents()).toEqual(['also update the README', 'and the changelog']);
    expect(await queued.locator('.queued-label').allTextContents()).toEqual(['Queued', 'Queued']);
    expect(await queued.locator('.queued-note').textContent()).toBe('Peon reads it at its next step.');
    await queued.getByRole('button', { name: 'Remove the queued message “and the changelog”' }).click();
    expect(await postedOf(view, 'unqueueMessage')).toEqual([{ type: 'unqueueMessage', id: 'q2' }]);
    // Delivered: the host sends the queue without it, and the message joins the transcript.
    await view.send([{ type: 'queue', messages: [] }, { type: 'append', entry: { kind: 'user', id: 'e2', text: 'also update the README' } }]);
    await queued.waitFor({ state: 'detached' });
    expect(await view.page.getByRole('article', { name: 'You' }).allTextContents()).toEqual(['Fix it.', 'also update the README']);
    await view.page.close();
  }, 30_000);

  test('with a card waiting, Enter sends the text as that card\'s deny message', async () => {
    const card = { id: 'req-1', tool: 'write', risk: 'filesystem', summary: { kind: 'command', command: 'touch README.md', cwd: '.' }, source: 'default', reasons: ['writes a file'], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
    const view = await open([{ type: 'busy', busy: true }, { type: 'approval', card }], [{ kind: 'user', id: 'e1', text: 'Fix it.' }]);
    const composer = view.page.getByRole('textbox', { name: 'Message Peon' });
    await composer.fill('do not touch the README');
    expect(await view.page.locator('.composer-intent').textContent()).toBe('Enter denies the waiting write card, with your text as the reason Peon is given.');
    await composer.press('Enter');
    expect(await postedOf(view, 'answer')).toEqual([{ type: 'answer', id: 'req-1', answer: 'deny', message: 'do not touch the README' }]);
    expect(await postedOf(view, 'queueMessage')).toEqual([]);
    await view.page.close();
  }, 30_000);
});

describe('the trash', () => {
  test('files this chat deleted, listed with Restore; the header shows how many; what Restore did is said', async () => {
    const view = await open([], [{ kind: 'user', id: 'e1', text: 'Clean up.' }]);
    expect(await view.page.getByRole('button', { name: /^Trash/ }).count()).toBe(0);
    const entries = [
      { id: 'm3x9k2a1-0a1b2c3d', path: 'src/old.js', size: 2048, deletedAt: ago(120_000), link: false },
      { id: 'm3x9k2a2-0a1b2c3e', path: 'notes/link.md', size: 0, deletedAt: ago(30 * 60_000), link: true },
    ];
    await view.send({ type: 'trash', entries });
    await view.page.getByRole('button', { name: 'Trash 2' }).click();
    expect(await postedOf(view, 'listTrash')).toEqual([{ type: 'listTrash' }]);
    const trash = view.page.getByRole('region', { name: 'Deleted files' });
    const first = trash.getByRole('listitem', { name: 'Deleted file src/old.js' });
    expect(await first.locator('.trash-meta').textContent()).toMatch(/^\s*2 KB · deleted 2 minutes ago\s*$/);
    expect(await trash.getByRole('listitem', { name: 'Deleted file notes/link.md' }).locator('.trash-meta').textContent()).toMatch(/a symbolic link · deleted 30 minutes ago/);
    await first.getByRole('button', { name: 'Restore src/old.js' }).click();
    expect(await postedOf(view, 'restoreTrash')).toEqual([{ type: 'restoreTrash', id: 'm3x9k2a1-0a1b2c3d' }]);
    await view.send({ type: 'trash', entries: [entries[1]], note: 'Restored src/old.js.' });
    expect(await trash.getByRole('status').textContent()).toBe('Restored src/old.js.');
    expect(await trash.getByRole('listitem').count()).toBe(1);
    await view.send({ type: 'trash', entries: [] });
    expect(await trash.locator('.trash-empty').textContent()).toBe('Nothing deleted in this chat is left in the trash.');
    // The header button stays while its view is open.
    expect(await view.page.getByRole('button', { name: 'Trash 0' }).count()).toBe(1);
    await view.page.close();
  }, 30_000);
});
