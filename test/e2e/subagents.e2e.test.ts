import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { sendInNewChat, sendMessage, UI_WAIT, openPeonWorkbench, type Workbench } from './workbench';

// Subagents in the real VS Code (issue 13): a background developer visible in the strip,
// its approval card labelled with its name and type and approved there, its end told in
// the chat, its transcript opened read-only with its tool table, its report reaching
// the main agent's next request. The model is the scripted server.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench({ 'README.md': '# project\n' }, { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl });
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(input) }] });

test('a background subagent: in the strip, its labelled card approved, its transcript opened, its report in the next request', async () => {
  model.script(call('t1', 'task', { name: 'builder', subagent_type: 'developer', prompt: 'Create notes.txt saying hello.', background: true }), { text: 'The builder is on it.' });
  model.route('builder', call('b1', 'write', { path: 'notes.txt', content: 'hello\n' }), { text: 'Created notes.txt.' });
  const chat = await sendInNewChat(workbench.page, 'have a subagent write notes');
  const strip = chat.getByRole('region', { name: 'Subagents' });
  const row = strip.locator('.agent-row', { hasText: 'builder' });
  await expect.poll(() => row.locator('.agent-status').textContent(), { timeout: UI_WAIT }).toBe('needs approval');
  expect(await row.locator('.agent-type').textContent()).toBe('developer');
  const card = chat.getByRole('group', { name: 'Approval: Create notes.txt (builder, developer)' });
  await card.waitFor({ timeout: UI_WAIT });
  expect(await card.locator('.approval-agent').textContent()).toBe('Asked by the subagent builder (developer)');
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-subagent-approval.png') });
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => row.locator('.agent-status').textContent(), { timeout: UI_WAIT }).toBe('completed');
  expect(fs.readFileSync(path.join(workbench.workspace, 'notes.txt'), 'utf8')).toBe('hello\n');
  expect(await row.locator('.agent-spend').textContent()).toMatch(/^\d+ tokens/);
  await expect.poll(() => chat.getByRole('status').allTextContents(), { timeout: UI_WAIT }).toContainEqual(expect.stringContaining('builder (developer) finished in the background'));

  // Its transcript, read-only, with its tool table.
  await row.locator('.agent-open').click();
  const view = chat.getByRole('region', { name: 'Subagent builder' });
  await view.waitFor({ timeout: UI_WAIT });
  expect(await view.getByLabel('Its tools').textContent()).toMatch(/^Tools: read, write, edit, delete, list, glob, grep, bash, todoread, todowrite, webfetch, websearch, mem-search, mem-read$/);
  await expect.poll(() => view.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Created notes.txt.']);
  expect(await view.locator('.message.user').textContent()).toBe('Create notes.txt saying hello.');
  expect(await view.locator('textarea').count()).toBe(0); // read-only: no composer inside
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-subagent-transcript.png') });
  await view.getByRole('button', { name: '← Chat' }).click();
  await view.waitFor({ state: 'detached', timeout: UI_WAIT });

  // Its report joins the main agent's next request.
  model.script({ text: 'The builder created notes.txt.' });
  await sendMessage(chat, 'what did it do?');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toBe('The builder created notes.txt.');
  const last = JSON.stringify(model.requests.at(-1)?.body);
  expect(last).toContain('subagent_report name=\\"builder\\" type=\\"developer\\" status=\\"completed\\"');
  expect(last).toContain('Created notes.txt.');
});
