import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { openPeonView, openPeonWorkbench, sendMessage, UI_WAIT, type Workbench } from './workbench';

let workbench: Workbench;
const consoleLines: string[] = [];

beforeAll(async () => {
  workbench = await openPeonWorkbench({ 'README.md': '# e2e workspace\n' });
  workbench.page.on('console', (message) => consoleLines.push(message.text()));
});

afterAll(async () => {
  await workbench?.close();
});

test('the Peon panel opens from the activity bar, takes a message and says honestly that no model is configured', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);

  const composer = chat.getByRole('textbox', { name: 'Message Peon' });
  await composer.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => chat.getByRole('status').first().textContent()).toContain('No model configured yet');

  await sendMessage(chat, 'Rename the helper in utils.ts');

  await chat.getByRole('article', { name: 'You' }).waitFor();
  expect(await chat.getByRole('article', { name: 'You' }).textContent()).toBe('Rename the helper in utils.ts');
  const notice = chat.getByRole('alert');
  await notice.waitFor();
  // Nothing was sent anywhere: the message waits for a model (test/e2e/setup.e2e.test.ts sends it once one is chosen).
  expect(await notice.locator('p').textContent()).toBe('No model chosen yet. Your message waits here: it is sent once a model is chosen.');
  expect(await composer.inputValue()).toBe('');

  await composer.fill('A draft the screenshot shows in the composer');
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-panel.png') });

  // Nothing in the panel was blocked by its Content-Security-Policy.
  expect(consoleLines.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
});

test('the conversation survives hiding the panel (its page reloads and gets it back)', async () => {
  const { page } = workbench;
  await page.locator('.activitybar a.action-label[aria-label^="Explorer"]').click();
  await page.locator('iframe.webview.ready').first().waitFor({ state: 'hidden' });
  const chat = await openPeonView(page);
  await chat.getByRole('article', { name: 'You' }).waitFor();
  expect(await chat.getByRole('article', { name: 'You' }).textContent()).toBe('Rename the helper in utils.ts');
  expect(await chat.getByRole('alert').count()).toBe(1);
});

test('New Chat in the view title clears the conversation', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  await chat.getByRole('article', { name: 'You' }).waitFor();
  await page.getByRole('button', { name: 'New Chat' }).click();
  await chat.getByText('Ask for a change in this workspace.', { exact: false }).waitFor();
  expect(await chat.getByRole('article').count()).toBe(0);
  expect(await chat.getByRole('alert').count()).toBe(0);
});
