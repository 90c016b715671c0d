import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, sendMessage, UI_WAIT, type Workbench } from './workbench';

// The card of a delegated agent call shows the absolute executable and the exact argv
// (DESIGN.md §7; issue 6's "done when"). The agent is a stand-in `claude` outside the
// workspace that records its argv.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;
let bin: string;

beforeAll(async () => {
  model = await startModelServer();
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-e2e-bin-'));
  const claude = path.join(bin, 'claude');
  fs.writeFileSync(claude, `#!/bin/sh\nprintf '%s\\n' "$@" > "${path.join(bin, 'argv.txt')}"\necho "delegated answer"\n`, { mode: 0o755 });
  // Named by its command setting (user scope): the extension host's PATH is the login shell's.
  workbench = await openPeonWorkbench({ 'README.md': '# project\n' }, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl, 'peon.agents.claude.command': [claude, '-p'] });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
  fs.rmSync(bin, { recursive: true, force: true });
});

test('a delegate call asks on a card with the absolute executable, the argv and the workspace; approved, the agent runs with exactly that argv', async () => {
  const prompt = 'review $(whoami); and "quotes"';
  model.script({ toolCalls: [{ id: 'd1', name: 'agent_claude', arguments: JSON.stringify({ prompt }) }] }, { text: 'Claude reviewed it.' });
  const chat = await openPeonView(workbench.page);
  await sendMessage(chat, 'ask claude');

  const card = chat.getByRole('group', { name: 'Approval: Start claude' });
  await card.waitFor({ timeout: UI_WAIT });
  const executable = path.join(fs.realpathSync(bin), 'claude');
  expect(await card.locator('dl.delegate dd').first().textContent()).toBe(executable);
  expect(await card.locator('dd.argv code').allTextContents()).toEqual([executable, '-p', prompt]);
  expect(await card.locator('dl.delegate pre').textContent()).toBe(prompt);
  expect(await card.locator('dl.delegate dd').nth(3).textContent()).toBe(fs.realpathSync(workbench.workspace));
  expect(await card.locator('.risk-badge').textContent()).toBe('agent');
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Claude reviewed it.']);
  expect(fs.readFileSync(path.join(bin, 'argv.txt'), 'utf8')).toBe(`-p\n${prompt}\n`);
});
