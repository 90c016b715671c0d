// Approval cards in the built webview, in headless Chromium (#5, #7, #8, #12 of the UX
// walkthrough): the answers pinned below the card's own scroll area at 200 px, a
// destructive card that says so and offers no permanent rule, scope buttons that say what
// they grant and where it is kept, the keyboard, and the permanent rules listed apart.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

const configured = { state: 'configured', provider: 'openai', model: 'fake-model' } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;

const base = { tool: 'bash', risk: 'process', source: 'default for bash: semi-judge', reasons: [], grantable: [], sessionGrants: [], canAlways: false, canOpenDiff: false };
const command = (id: string, text: string, extra: Record<string, unknown> = {}) => ({ ...base, id, summary: { kind: 'command', command: text, cwd: '.', sandbox: { state: 'sandboxed', text: 'Sandboxed — writes: the workspace, its own /tmp · network off' } }, ...extra });
const SIXTY = ['--- /dev/null', '+++ b/src/rules.js', '@@ -0,0 +1,60 @@', ...Array.from({ length: 60 }, (_, i) => `+export const rule${i} = "pattern-${i}";`)].join('\n');
const created = { ...base, id: 'w1', tool: 'write', risk: 'filesystem', source: 'default for write: semi-ask', reasons: ['it changes files'], summary: { kind: 'file-change', path: 'src/rules.js', operation: 'create', diff: SIXTY, reasons: [] }, grantable: ['src/rules.js'], sessionGrants: ['src/rules.js'], canAlways: true, canOpenDiff: true };

async function open(width: number, messages: unknown[], height = 600): Promise<View> {
  const view = await openStandaloneWebview(browser, { width, height });
  await view.send([{ type: 'init', entries: [{ kind: 'user', id: 'u1', text: 'create a rules file' }], model: configured }, ...messages]);
  return view;
}

const lastPosted = async (view: View) => (await view.posted()).at(-1);
/** What has the focus: a card by its label, the composer, or the tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('aria-label') ?? active?.tagName ?? null;
  });
const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('cards that fit', () => {
  test('a 60-line new file at 200 px: the answers are in view, outside the card\'s scroll area; the header holds', async () => {
    const view = await open(200, [{ type: 'approval', card: created }]);
    const card = view.page.getByRole('group', { name: 'Approval: Create src/rules.js' });
    await card.waitFor();
    const body = card.locator('.approval-body');
    // The diff scrolls inside the card; the list around it does not.
    expect(await body.evaluate((el) => el.scrollHeight > el.clientHeight + 20)).toBe(true);
    expect(await view.page.locator('.approvals').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    const cardBox = (await card.boundingBox())!;
    for (const name of ['Approve', 'Allow changes to src/rules.js for this chat', 'Always allow changes to src/rules.js — saved in your user settings', 'Deny']) {
      const button = card.getByRole('button', { name, exact: true });
      const box = (await button.boundingBox())!;
      expect(await button.evaluate((el) => el.closest('.approval-body') === null), name).toBe(true);
      expect(box.y + box.height, name).toBeLessThanOrEqual(600);
      expect(box.x + box.width, name).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    // The header holds (it broke into "wri / te"): at 200 px the tool's name gives the title its room.
    expect(await card.locator('.approval-tool').isVisible()).toBe(false);
    expect(await card.locator('header').evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(48);
    expect(await view.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(200);
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'w1', answer: 'once' });
    await view.page.close();
  }, 30_000);

  test('several cards: each one\'s answers stay below its own body, never inside it', async () => {
    const view = await open(300, [{ type: 'approval', card: created }, { type: 'approval', card: { ...created, id: 'w2', summary: { ...created.summary, path: 'src/more.js' } } }]);
    const second = view.page.getByRole('group', { name: 'Approval: Create src/more.js' });
    await second.waitFor();
    // At 300 px the tool's name shows, one word on one line.
    const tool = second.locator('.approval-tool');
    expect(await tool.textContent()).toBe('write');
    expect(await tool.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(28);
    await second.getByRole('button', { name: 'Deny' }).scrollIntoViewIfNeeded();
    expect(await second.getByRole('button', { name: 'Deny' }).evaluate((el) => el.closest('.approval-body') === null)).toBe(true);
    await second.getByRole('button', { name: 'Deny' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'w2', answer: 'deny' });
    await view.page.close();
  }, 30_000);
});

describe('what a card says', () => {
  test('a destructive command says so first and offers no "Always allow"; a plain one names the scope of each answer', async () => {
    const rm = command('d1', 'rm -rf node_modules package-lock.json && npm install', {
      reasons: ['`rm -rf node_modules package-lock.json`: rm is not one of the read-only commands Peon runs without asking', '`npm install`: npm is not one of the read-only commands Peon runs without asking'],
      grantable: ['rm -rf node_modules package-lock.json', 'npm install'],
      sessionGrants: ['rm -rf node_modules package-lock.json', 'npm install'],
      destructive: ['rm -rf node_modules package-lock.json deletes node_modules, package-lock.json'],
    });
    const ts = command('t1', 'git log --oneline -3 && npm run ts --if-present', { grantable: ['npm run ts --if-present'], sessionGrants: ['npm run ts --if-present'], canAlways: true, reasons: ['`npm run ts --if-present`: npm is not one of the read-only commands Peon runs without asking'] });
    const view = await open(300, [{ type: 'approval', card: rm }, { type: 'approval', card: ts }], 900);
    const destructive = view.page.locator('[data-approval="d1"]');
    await destructive.waitFor();
    expect(await destructive.locator('.risk-badge').textContent()).toBe('destructive');
    expect(text(await destructive.getByRole('alert').textContent())).toBe('Destructive: Peon cannot undo what this does. rm -rf node_modules package-lock.json deletes node_modules, package-lock.json');
    expect((await destructive.getByRole('button').allTextContents()).map(text)).toEqual(['Approve', 'Allow rm -rf node_modules package-lock.json and npm install for this chat', 'Deny']);
    // Plain words: why it asks, where it runs; no internal terms.
    expect(await destructive.locator('.why summary').textContent()).toBe('Why it asks: Commands that are not on the read-only list ask first');
    expect(await destructive.locator('.where').textContent()).toBe('Runs in the workspace root');
    expect(await destructive.textContent()).not.toMatch(/semi-|in \.(\s|$)/);

    const plain = view.page.locator('[data-approval="t1"]');
    expect((await plain.getByRole('button').allTextContents()).map(text)).toEqual(['Approve', 'Allow npm run ts --if-present for this chat', 'Always allow npm run ts --if-present — saved in your user settings', 'Deny']);
    await plain.getByRole('button', { name: /^Always allow/ }).click();
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 't1', answer: 'always' });
    await view.page.close();
  }, 30_000);

  test('the chat\'s grants show the command as it ran; the permanent rules are listed apart, removable, with a way to open them', async () => {
    const view = await open(300, [
      { type: 'grants', grants: [{ tool: 'bash', pattern: "node -e console.log('a b')", text: `node -e "console.log('a b')"` }] },
      { type: 'rules', rules: [{ tool: 'bash', pattern: 'npm run ts --if-present' }] },
    ]);
    const grants = view.page.getByRole('region', { name: 'Allowed for this chat' });
    await grants.waitFor();
    expect(await grants.locator('.grant').allTextContents()).toEqual([`bash node -e "console.log('a b')"×`]);
    await grants.getByRole('button', { name: `Revoke bash node -e "console.log('a b')"` }).click();
    expect(await lastPosted(view)).toEqual({ type: 'revokeGrant', tool: 'bash', pattern: "node -e console.log('a b')" });

    const rules = view.page.locator('details.always-rules');
    expect(await rules.locator('summary').textContent()).toBe('Always allowed: 1 rule in your user settings');
    expect(await grants.textContent()).not.toContain('npm run ts');
    await rules.locator('summary').click();
    const list = rules.getByRole('list', { name: 'Always allowed (your user settings)' });
    expect(await list.getByRole('listitem').allTextContents()).toEqual(['bash npm run ts --if-present×']);
    await list.getByRole('button', { name: 'Remove the rule bash npm run ts --if-present' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'removeRule', tool: 'bash', pattern: 'npm run ts --if-present' });
    await rules.getByRole('button', { name: 'Open in user settings' }).click();
    expect(await lastPosted(view)).toEqual({ type: 'openRules' });
    await view.send({ type: 'rules', rules: [] });
    await rules.waitFor({ state: 'detached' });
    await view.page.close();
  }, 30_000);
});

describe('the keyboard', () => {
  test('a new card takes the focus; Enter approves; the focus goes back to the composer', async () => {
    const view = await open(300, [{ type: 'busy', busy: true }, { type: 'approval', card: command('k1', 'npm test') }]);
    await view.page.locator('[data-approval="k1"][data-armed]').waitFor();
    expect(await focused(view.page)).toBe('Approval: Run a command');
    await view.page.keyboard.press('Enter');
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'k1', answer: 'once' });
    expect(await focused(view.page)).toBe('Message Peon');
    await view.page.close();
  }, 30_000);

  test('Enter in the message field denies with the message; Escape on a card denies it; Escape elsewhere stops the turn', async () => {
    const view = await open(300, [{ type: 'busy', busy: true }, { type: 'approval', card: command('k2', 'npm publish') }]);
    const card = view.page.locator('[data-approval="k2"]');
    await card.waitFor();
    await card.getByRole('textbox', { name: 'Message for Peon with Deny' }).fill('not from here');
    await view.page.keyboard.press('Enter');
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'k2', answer: 'deny', message: 'not from here' });
    await view.send({ type: 'approvalSettled', id: 'k2' });

    await view.send({ type: 'approval', card: command('k3', 'npm install') });
    await view.page.locator('[data-approval="k3"]').waitFor();
    expect(await focused(view.page)).toBe('Approval: Run a command');
    await view.page.keyboard.press('Escape');
    expect(await lastPosted(view)).toEqual({ type: 'answer', id: 'k3', answer: 'deny' });
    // The focus is back in the composer: Escape there stops the turn.
    expect(await focused(view.page)).toBe('Message Peon');
    await view.page.keyboard.press('Escape');
    expect(await lastPosted(view)).toEqual({ type: 'stop' });
    await view.page.close();
  }, 30_000);

  test('a card does not take the focus from someone typing; a card settled under the focus hands it on', async () => {
    const view = await open(300, [{ type: 'busy', busy: true }]);
    const composer = view.page.getByRole('textbox', { name: 'Message Peon' });
    await composer.fill('also update the README');
    await view.send({ type: 'approval', card: command('k4', 'npm test') });
    await view.page.locator('[data-approval="k4"]').waitFor();
    expect(await focused(view.page)).toBe('Message Peon');
    await composer.fill('');
    // Two cards: the second waits; answering the first moves the focus to it.
    await view.send({ type: 'approval', card: command('k5', 'npm run build') });
    await view.page.locator('[data-approval="k4"]').focus();
    await view.page.keyboard.press('Escape');
    expect(await focused(view.page)).toBe('Approval: Run a command');
    expect(await view.page.evaluate(() => document.activeElement?.getAttribute('data-approval'))).toBe('k5');
    // Withdrawn under the focus (Stop): the focus goes to the composer, not to the page.
    await view.send([{ type: 'approvalSettled', id: 'k4' }, { type: 'approvalSettled', id: 'k5' }]);
    await view.page.locator('[data-approval]').first().waitFor({ state: 'detached' });
    await expect.poll(() => focused(view.page)).toBe('Message Peon');
    await view.page.close();
  }, 30_000);

  test('the host puts the cursor in the composer (Focus Chat, New Chat) or on a card (its notification)', async () => {
    const view = await open(300, [{ type: 'approval', card: command('k6', 'npm test') }]);
    await view.page.locator('[data-approval="k6"]').waitFor();
    await view.send({ type: 'focus', target: 'composer' });
    await expect.poll(() => focused(view.page)).toBe('Message Peon');
    await view.page.keyboard.type('hello');
    expect(await view.page.getByRole('textbox', { name: 'Message Peon' }).inputValue()).toBe('hello');
    await view.send({ type: 'focus', target: 'approval', id: 'k6' });
    await expect.poll(() => focused(view.page)).toBe('Approval: Run a command');
    // A card no longer there: the composer.
    await view.send({ type: 'focus', target: 'approval', id: 'gone' });
    await expect.poll(() => focused(view.page)).toBe('Message Peon');
    await view.page.close();
  }, 30_000);
});

declare const document: { activeElement: { getAttribute(name: string): string | null; tagName: string } | null; documentElement: { scrollWidth: number } };

describe("the person's edit of a proposal (#11)", () => {
  test('an edit made in the diff editor replaces the diff on the card with theirs, marked; undone, Peon\'s diff is back', async () => {
    const view = await open(300, [{ type: 'approval', card: created }]);
    const card = view.page.getByRole('group', { name: 'Approval: Create src/rules.js' });
    await card.waitFor();
    expect(await card.locator('.edited').count()).toBe(0);
    expect(await card.locator('.diff-row.add').count()).toBeGreaterThan(20);

    const theirs = ['--- /dev/null', '+++ b/src/rules.js', '@@ -0,0 +1,1 @@', '+export const only = 1;'].join('\n');
    await view.send([{ type: 'approvalEdited', id: 'w1', diff: theirs }]);
    await card.locator('.edited').waitFor();
    expect(text(await card.locator('.edited').textContent())).toBe('Edited by you · Approve writes your version');
    expect(await card.getByRole('table', { name: 'Your version of the change' }).locator('.diff-row.add').allTextContents()).toEqual(['+export const only = 1;']);
    // For another card, or a forged id, nothing changes.
    await view.send([{ type: 'approvalEdited', id: 'nope', diff: '+x' }]);
    expect(await card.locator('.diff-row.add').allTextContents()).toEqual(['+export const only = 1;']);

    await view.send([{ type: 'approvalEdited', id: 'w1', diff: null }]);
    await card.locator('.edited').waitFor({ state: 'detached' });
    expect(await card.locator('.diff-row.add').count()).toBeGreaterThan(20);
    await view.page.close();
  }, 30_000);
});
