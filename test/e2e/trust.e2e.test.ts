import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, runCommand, sendMessage, UI_WAIT, type Workbench } from './workbench';

// Workspace Trust (DESIGN.md §5): in Restricted Mode Peon offers the model only the
// read-only tools; trusting the folder later brings the others back without a reload.
let model: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  model = await startModelServer();
  workbench = await openPeonWorkbench(
    { 'README.md': '# project\n' },
    { 'security.workspace.trust.enabled': true, 'peon.model.provider': 'openai', 'peon.model.id': 'fake-model', 'peon.model.baseUrl': model.openaiUrl },
  );
});

afterAll(async () => {
  await workbench?.close();
  await model?.close();
});

const toolsOffered = (): string[] => ((model.requests.at(-1)?.body as { tools?: { function: { name: string } }[] })?.tools ?? []).map((t) => t.function.name).sort();

test('untrusted: only read-only tools, a write is unknown; trusted later: the write tools are back, without a reload', async () => {
  const { page } = workbench;
  // The trust prompt of a fresh folder: stay in Restricted Mode.
  await page.getByRole('button', { name: "No, I don't trust the authors" }).click({ timeout: UI_WAIT });

  model.script({ toolCalls: [{ id: 'w1', name: 'write', arguments: JSON.stringify({ path: 'x.txt', content: 'x' }) }] }, { text: 'I cannot write here.' });
  const chat = await openPeonView(page);
  await sendMessage(chat, 'write x.txt');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['I cannot write here.']);
  expect(toolsOffered().length).toBeGreaterThan(0);
  expect(toolsOffered()).toEqual(expect.not.arrayContaining(['write', 'edit', 'delete', 'bash', 'agent_claude']));
  expect(await chat.getByRole('group', { name: 'Tool call write' }).locator('.tool-status').textContent()).toBe('failed');
  expect(fs.existsSync(path.join(workbench.workspace, 'x.txt'))).toBe(false);

  // Trust the folder through VS Code's own editor; no reload.
  await runCommand(page, 'Workspaces: Manage Workspace Trust');
  await page.getByRole('button', { name: 'Trust', exact: true }).click({ timeout: UI_WAIT });
  model.script({ text: 'Now I can.' });
  const again = await openPeonView(page);
  await sendMessage(again, 'and now?');
  await expect.poll(() => again.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toContain('Now I can.');
  expect(toolsOffered()).toEqual(expect.arrayContaining(['bash', 'delete', 'edit', 'write']));
});
