import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, sendInNewChat, startNewChat, UI_WAIT, type Workbench } from './workbench';

// Approval cards in the real VS Code, done the way the UX walkthrough did them: #5 (a
// 60-line new file, at 300 and 200 px: the answers in view), #12 (an `rm -rf` card, Always
// allow and the rules list, a session grant shown as it ran), #8 (a card waiting in a
// hidden panel: the badge and the notification), #7 (approve, deny and stop by keyboard;
// Focus Chat, the keybinding and New Chat put the cursor in the composer).
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench({ 'index.js': 'module.exports = () => true;\n', 'README.md': '# ignore\n' }, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const bash = (id: string, command: string, description?: string) => ({ toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command, ...(description ? { description } : {}) }) }] });
const answers = (chat: FrameLocator) => chat.getByRole('article', { name: 'Peon' }).allTextContents();
/** What has the focus inside the panel: a card or field by its label. */
const focused = (chat: FrameLocator) => chat.locator('body').evaluate((body) => body.ownerDocument.activeElement?.getAttribute('aria-label') ?? body.ownerDocument.activeElement?.tagName ?? null);
const composer = (chat: FrameLocator) => chat.getByRole('textbox', { name: 'Message Peon' });

/** Drags the side bar's edge, as the walkthrough did, until it is `width` px wide. */
async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const bar = page.locator('.part.sidebar');
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = (await bar.boundingBox())!;
    if (Math.abs(box.width - width) <= 1) return;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 8 });
    await page.mouse.up();
  }
  expect(Math.round((await bar.boundingBox())!.width)).toBe(width);
}

/** Shows the Explorer in the side bar (clicking its entry while it shows would close the side bar). */
async function showExplorer(page: Page): Promise<void> {
  const tab = page.locator('.activitybar li[role="tab"]', { has: page.locator('a.action-label[aria-label^="Explorer"]') });
  if (!(await tab.evaluate((li) => li.classList.contains('checked')))) await tab.click();
  await page.locator('.part.sidebar .explorer-folders-view, .part.sidebar .explorer-viewlet').first().waitFor({ timeout: UI_WAIT });
}

/** Peon's entry in the activity bar, and the badge VS Code draws on it. */
const peonTab = (page: Page) => page.locator('.activitybar li[role="tab"]', { has: page.locator('a.action-label[aria-label^="Peon"]') });

test('#5: a 60-line new file at 300 and 200 px, light and dark: the answers stay in view below the diff; the header does not break', async () => {
  const { page } = workbench;
  const content = Array.from({ length: 60 }, (_, i) => `export const rule${i} = "pattern-${i}";`).join('\n') + '\n';
  model.script({ toolCalls: [{ id: 'w1', name: 'write', arguments: JSON.stringify({ path: 'src/rules.js', content }) }] }, { text: 'Created src/rules.js.' });
  await openPeonView(page);
  await setSideBarWidth(page, 300);
  const chat = await sendInNewChat(page, 'create a rules file');
  const card = chat.getByRole('group', { name: 'Approval: Create src/rules.js' });
  await card.waitFor({ timeout: UI_WAIT });
  const frame = page.locator('iframe.webview.ready');

  for (const [theme, themeName] of [['dark', 'Dark Modern'], ['light', 'Light Modern']] as const) {
    await pickColorTheme(page, themeName);
    await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain(theme === 'dark' ? 'vscode-dark' : 'vscode-light');
    for (const width of [300, 200]) {
      await setSideBarWidth(page, width);
      const view = (await frame.boundingBox())!;
      await expect.poll(async () => Math.round((await card.boundingBox())!.width + 2 * 8), { timeout: UI_WAIT }).toBeLessThanOrEqual(width);
      // Every answer is inside the panel, beside (not inside) the diff's scroll area.
      for (const name of ['Approve', 'Allow changes to src/rules.js for this chat', 'Always allow changes to src/rules.js — saved in your user settings', 'Deny']) {
        const button = card.getByRole('button', { name, exact: true });
        const box = (await button.boundingBox())!;
        expect(box.y + box.height, `${name} at ${width} px`).toBeLessThanOrEqual(view.y + view.height);
        expect(box.x + box.width, `${name} at ${width} px`).toBeLessThanOrEqual(view.x + view.width);
        expect(await button.evaluate((el) => el.closest('.approval-body') === null)).toBe(true);
      }
      expect(await card.locator('.approval-body').evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      // The header holds: "write" on one line at 300 px (it broke into "wri / te"), left out at 200 px for the title's room.
      const tool = card.locator('.approval-tool');
      if (width === 300) expect(await tool.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(24);
      else expect(await tool.isVisible()).toBe(false);
      await page.screenshot({ path: path.join(shots, `peon-approval-card-${theme}-${width}.png`) });
    }
  }
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Created src/rules.js.']);
  expect(fs.readFileSync(path.join(workbench.workspace, 'src', 'rules.js'), 'utf8')).toBe(content);
  await setSideBarWidth(page, 300);
});

test('#12: the rm -rf card says it is destructive and offers no Always allow; its wording is plain', async () => {
  model.script(bash('r1', 'rm -rf node_modules package-lock.json && npm install', 'Reinstall dependencies from scratch'), { text: 'Left them as they are.' });
  const chat = await sendInNewChat(workbench.page, 'Now make sure the dependencies are fine.');
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  expect(await card.locator('.risk-badge').textContent()).toBe('destructive');
  expect((await card.getByRole('alert').first().textContent())?.replace(/\s+/g, ' ').trim()).toBe('Destructive: Peon cannot undo what this does. rm -rf node_modules package-lock.json deletes node_modules, package-lock.json');
  expect((await card.getByRole('button').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t !== '')).toEqual(['Approve', 'Allow rm -rf node_modules package-lock.json and npm install for this chat', 'Deny']);
  expect(await card.locator('.why summary').textContent()).toBe('Why it asks: Commands that are not on the read-only list ask first');
  expect(await card.locator('.where').textContent()).toBe('Runs in the workspace root');
  expect(await card.textContent()).not.toMatch(/semi-judge|semi-ask|\bin \.(\s|$)/);
  await workbench.page.screenshot({ path: path.join(shots, 'peon-approval-destructive-light-300.png') });
  await setSideBarWidth(workbench.page, 200);
  await workbench.page.screenshot({ path: path.join(shots, 'peon-approval-destructive-light-200.png') });
  await pickColorTheme(workbench.page, 'Dark High Contrast');
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain('vscode-high-contrast');
  await workbench.page.screenshot({ path: path.join(shots, 'peon-approval-destructive-hc-200.png') });
  await pickColorTheme(workbench.page, 'Light Modern');
  await setSideBarWidth(workbench.page, 300);
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Left them as they are.']);
  expect(fs.existsSync(path.join(workbench.workspace, 'index.js'))).toBe(true);
});

test('#12: Always allow says what it wrote and where; the rule is listed apart from the chat\'s grants, and removed from there', async () => {
  const { page } = workbench;
  model.script(bash('a1', 'git log --oneline -3 && npm run ts --if-present'), { text: 'Checked.' });
  const chat = await sendInNewChat(page, 'check the types');
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Always allow npm run ts --if-present — saved in your user settings' }).click();
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Checked.']);
  const rules = () => JSON.parse(fs.readFileSync(workbench.userSettingsFile, 'utf8'))['peon.permission.rules'];
  await expect.poll(rules, { timeout: UI_WAIT }).toEqual({ bash: { 'npm run ts --if-present': 'allow' } });
  // It says so, and where.
  const toast = page.locator('.notification-toast', { hasText: 'Peon will always allow "npm run ts --if-present" (bash) without asking. Saved in your user settings (peon.permission.rules).' });
  await toast.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => toast.locator('.monaco-button').allTextContents()).toEqual(['Open Settings', 'Undo']);
  // Not a grant of this chat: listed under its own heading.
  expect(await chat.getByRole('region', { name: 'Allowed for this chat' }).count()).toBe(0);
  const always = chat.locator('details.always-rules');
  await expect.poll(() => always.locator('summary').textContent(), { timeout: UI_WAIT }).toBe('Always allowed: 1 rule in your user settings');
  await always.locator('summary').click();
  await page.screenshot({ path: path.join(shots, 'peon-approval-always-rules.png') });
  await always.getByRole('button', { name: 'Remove the rule bash npm run ts --if-present' }).click();
  await expect.poll(rules, { timeout: UI_WAIT }).toBeUndefined();
  await always.waitFor({ state: 'detached', timeout: UI_WAIT });
  await toast.locator('.codicon-notifications-clear').click().catch(() => undefined);
});

test('#12: a command allowed for this chat is listed as it ran, quotes and all', async () => {
  model.script(bash('s1', 'touch "quoted name.txt"'), { text: 'Touched.' });
  const chat = await sendInNewChat(workbench.page, 'touch a quoted name');
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  await card.getByRole('button', { name: 'Allow touch "quoted name.txt" for this chat' }).click();
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Touched.']);
  const grants = chat.getByRole('region', { name: 'Allowed for this chat' });
  expect((await grants.locator('.grant').allTextContents()).map((t) => t.replace(/\s+/g, ' '))).toEqual(['bash touch "quoted name.txt"×']);
  expect(fs.existsSync(path.join(workbench.workspace, 'quoted name.txt'))).toBe(true);
});

test('#8: a card waiting while the panel is hidden: a badge on the Peon icon and a notification whose Show opens the card; answered, the badge goes', async () => {
  const { page } = workbench;
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  model.script({ hold, ...bash('h1', 'touch tested.txt', 'Run the tests') }, { text: 'Tests ran.' });
  const asked = model.requests.length;
  const chat = await sendInNewChat(page, 'Run npm test');
  await expect.poll(() => model.requests.length, { timeout: UI_WAIT }).toBeGreaterThan(asked);
  // Switched to the Explorer at once, before the model answered.
  await showExplorer(page);
  release();

  await expect.poll(() => peonTab(page).locator('.badge-content').textContent(), { timeout: UI_WAIT }).toBe('1');
  expect(await peonTab(page).locator('.badge').isVisible()).toBe(true);
  const toast = page.locator('.notification-toast', { hasText: 'Peon is waiting for your approval: run touch tested.txt' });
  await toast.waitFor({ timeout: UI_WAIT });
  await page.screenshot({ path: path.join(shots, 'peon-approval-hidden-badge.png') });
  await toast.getByRole('button', { name: 'Show' }).click();
  const card = chat.getByRole('group', { name: 'Approval: Run a command' });
  await card.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Approval: Run a command');
  // Approved from the keyboard: Enter on the card.
  await chat.locator('[data-approval][data-armed]').waitFor({ timeout: UI_WAIT });
  await page.keyboard.press('Enter');
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Tests ran.']);
  expect(fs.existsSync(path.join(workbench.workspace, 'tested.txt'))).toBe(true);
  await expect.poll(() => peonTab(page).locator('.badge').isVisible(), { timeout: UI_WAIT }).toBe(false);
  expect(await peonTab(page).locator('a.action-label').getAttribute('aria-label')).toBe('Peon');
});

test('#7: a new card takes the focus; Enter in its message field denies with the message; Escape denies a card, and in the composer stops the turn', async () => {
  const { page } = workbench;
  model.script(bash('k1', 'npm publish'), { text: 'Not published.' }, bash('k2', 'npm install left-pad'), { text: 'Not installed.' });
  const chat = await sendInNewChat(page, 'publish it');
  const first = chat.getByRole('group', { name: 'Approval: Run a command' });
  await first.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Approval: Run a command');
  await page.keyboard.press('Tab');
  await first.getByRole('textbox', { name: 'Message for Peon with Deny' }).focus();
  await page.keyboard.type('not from this machine');
  await page.keyboard.press('Enter');
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Not published.']);
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('They said: not from this machine');
  // After the answer the cursor is back in the composer.
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Message Peon');

  await page.keyboard.type('install left-pad');
  await page.keyboard.press('Enter');
  const second = chat.getByRole('group', { name: 'Approval: Run a command' });
  await second.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Approval: Run a command');
  await page.keyboard.press('Escape');
  await expect.poll(() => answers(chat), { timeout: UI_WAIT }).toEqual(['Not published.', 'Not installed.']);
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('The user denied this bash call');

  // Escape in the composer stops a turn that is waiting for the model.
  model.script({ stall: true });
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Message Peon');
  await page.keyboard.type('take your time');
  await page.keyboard.press('Enter');
  await chat.getByRole('button', { name: 'Stop' }).waitFor({ timeout: UI_WAIT });
  await composer(chat).focus();
  await page.keyboard.press('Escape');
  await chat.getByRole('button', { name: 'Send' }).waitFor({ timeout: UI_WAIT });
});

test('#7: Focus Chat (one in the palette), its keybinding and New Chat put the cursor in the composer', async () => {
  const { page } = workbench;
  // From the Explorer (the panel hidden, its page gone): only one "Focus" command for Peon in the palette.
  await composer(await openPeonView(page)).waitFor({ timeout: UI_WAIT });
  await showExplorer(page);
  await page.locator('.part.editor').click();
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.fill('>Peon: Focus');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Peon: Focus' }).first().waitFor({ timeout: UI_WAIT });
  const rows = page.locator('.quick-input-list .monaco-list-row');
  // (a row's text ends with its group's label, "other commands"; VS Code may add its own "similar commands" below Peon's)
  expect((await rows.allTextContents()).filter((t) => /^Peon: .*Focus/.test(t)).map((t) => t.replace(/(recently used|other commands)$/, ''))).toEqual(['Peon: Focus on Chat View']);
  await rows.first().click();
  const chat = await openPeonView(page);
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Message Peon');
  await page.keyboard.type('from the palette');
  expect(await composer(chat).inputValue()).toBe('from the palette');
  await composer(chat).fill('');

  // The keybinding, from the Explorer: Peon opens with the cursor in the composer.
  await showExplorer(page);
  await page.locator('.part.editor').click();
  await page.keyboard.press('Control+Shift+Alt+P');
  await expect.poll(() => focused(chat), { timeout: UI_WAIT }).toBe('Message Peon');
  await page.keyboard.type('from the keybinding');
  expect(await composer(chat).inputValue()).toBe('from the keybinding');

  // New Chat, from the view's title: a fresh chat, the cursor in its composer (startNewChat waits for exactly that).
  await composer(chat).fill('');
  await startNewChat(page);
  expect(await focused(chat)).toBe('Message Peon');
  await page.keyboard.type('after New Chat');
  expect(await composer(chat).inputValue()).toBe('after New Chat');
});

test('#7: the keybinding clashes with none of VS Code\'s own (its Keyboard Shortcuts editor lists only Peon for it)', async () => {
  const { page } = workbench;
  await page.locator('.part.editor').click();
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget .quick-input-box input.input').fill('>Preferences: Open Keyboard Shortcuts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: /^Preferences: Open Keyboard Shortcuts/ }).first().click();
  const search = page.locator('.keybindings-editor .keybindings-search-container input, .keybindings-editor .search-container input').first();
  await search.waitFor({ timeout: UI_WAIT });
  await search.fill('"ctrl+shift+alt+p"');
  const rows = page.locator('.keybindings-editor .monaco-list-row');
  await expect.poll(() => rows.count(), { timeout: UI_WAIT }).toBe(1);
  expect(await rows.first().textContent()).toMatch(/^Peon: Focus ChatCtrl\+Shift\+Alt\+P/);
  // The search does find VS Code's own: the palette's key lists its command.
  await search.fill('"ctrl+shift+p"');
  await expect.poll(async () => (await rows.allTextContents()).join('\n'), { timeout: UI_WAIT }).toContain('Show All CommandsCtrl+Shift+P');
});
