import { afterAll, beforeAll, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, runCommand, sendMessage, UI_WAIT, type Workbench } from './workbench';

// The panel over the Anthropic Messages protocol (the agent e2e covers OpenAI's): the
// key typed into "Peon: Set API Key" (SecretStorage), a streamed answer, a read tool
// call with its card, the final answer, and the tokens the server reported.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench({ 'NOTES.md': 'Ship on Friday.\n' }, { 'peon.model.provider': 'anthropic', 'peon.model.id': 'claude-fake', 'peon.model.baseUrl': model.anthropicUrl });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

test('Set API Key, then a turn over Anthropic Messages: streamed text, a read card, the answer, the server\'s token counts', async () => {
  const { page } = workbench;
  // Peon's view first: by then VS Code has read its contributions, commands included.
  const chat = await openPeonView(page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await runCommand(page, 'Peon: Set API Key');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Anthropic' }).first().click();
  const input = page.locator('.quick-input-widget .quick-input-box input.input');
  await input.fill('sk-ant-e2e-key');
  await input.press('Enter');

  model.script({ text: 'Reading the notes.', toolCalls: [{ id: 'toolu_1', name: 'read', arguments: '{"path":"NOTES.md"}' }] }, { text: 'The notes say: ship on Friday.' });
  await sendMessage(chat, 'What do the notes say?');
  const card = chat.getByRole('group', { name: 'Tool call read' });
  await card.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('done');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Reading the notes.', 'The notes say: ship on Friday.']);

  // Both requests went to the Messages API with the key from SecretStorage.
  const calls = model.requests.filter((r) => r.url.startsWith('/v1/messages'));
  expect(calls).toHaveLength(2);
  expect(calls.map((r) => r.headers.authorization)).toEqual(['Bearer sk-ant-e2e-key', 'Bearer sk-ant-e2e-key']);
  expect(JSON.stringify(calls[1]!.body)).toContain('"tool_use_id":"toolu_1"');
  // Per request the server reports 100 input, 40 cache read, 10 cache write, 20 output tokens:
  // the context is 170; the chat's input counts cache writes (2 × 110), reads once (2 × 40).
  expect(await chat.locator('.meter').textContent()).toMatch(/^\s*Context 170 \/ 200\.0k \(0%\) · this chat: 220 in, 40 out, 80 cached\s*$/);
});
