import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { packFixtureExtension } from '../vscode/fixtureExtension.mjs';
import { openPeonView, openPeonWorkbench, runCommand, sendMessage, UI_WAIT, type Workbench } from './workbench';

// A user with no key and no model server: VS Code offers a chat model (here the scripted
// one of test/fixtures/lm-provider, contributed through vscode.lm as Copilot's are), the
// first-run panel offers it, and a prompt runs a whole turn through it.
let workbench: Workbench;
let scratch: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-e2e-lm-'));
  const script = path.join(scratch, 'replies.json');
  fs.writeFileSync(
    script,
    JSON.stringify([
      { text: 'Let me read the notes.', toolCalls: [{ id: 'lm-call-1', name: 'read', input: { path: 'NOTES.md' } }] },
      { text: 'The notes say **the build is green**.' },
    ]),
  );
  workbench = await openPeonWorkbench({ 'NOTES.md': 'The build is green.\n' }, {}, {
    install: [packFixtureExtension('lm-provider', scratch)],
    enableProposedApi: ['peon-test.peon-test-lm'],
    env: { PEON_TEST_LM_SCRIPT: script },
  });
});

afterAll(async () => {
  await workbench?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test("first run offers VS Code's model; chosen, a prompt runs a turn with a tool call through vscode.lm", async () => {
  const chat = await openPeonView(workbench.page);
  const choice = chat.getByRole('button', { name: 'VS Code: Scripted Model (peon-test)' });
  await choice.waitFor({ timeout: UI_WAIT });
  await choice.click();
  // The choice lands in user settings; the setup offer goes away.
  await chat.getByRole('region', { name: 'Choose a model' }).waitFor({ state: 'detached', timeout: UI_WAIT });

  await sendMessage(chat, 'What do the notes say?');
  const card = chat.getByRole('group', { name: 'Tool call read' });
  await card.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('done');
  const answers = chat.getByRole('article', { name: 'Peon' });
  await expect.poll(() => answers.allTextContents(), { timeout: UI_WAIT }).toEqual(['Let me read the notes.', 'The notes say the build is green.']);
  expect(await answers.last().locator('strong').textContent()).toBe('the build is green');
  // The window is the model's own (maxInputTokens 64,000); no price is known, so none is shown.
  expect(await chat.locator('.meter').textContent()).toMatch(/^\s*Context [\d.]+k? \/ 64\.0k \(\d+%\) · this chat: [\d.]+k? in, \d+ out, 0 cached\s*$/);
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-vscode-lm.png') });
});

test('"Peon: Select Model" lists VS Code\'s models beside the providers with a key', async () => {
  const { page } = workbench;
  await runCommand(page, 'Peon: Select Model');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: UI_WAIT });
  await expect.poll(() => rows.allTextContents(), { timeout: UI_WAIT }).toEqual(expect.arrayContaining([expect.stringContaining('Scripted Model (peon-test)'), expect.stringContaining('Anthropic'), expect.stringContaining('OpenAI or compatible…')]));
  await page.keyboard.press('Escape');
});
