import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artifactsDir } from '../../scripts/paths.mjs';
import { startModelServer } from '../fakes/modelServer.mjs';
import { freePort } from '../vscode/codeServer.mjs';
import { openPeonView, openPeonWorkbench, pickColorTheme, sendMessage, startNewChat, UI_WAIT, type Workbench } from './workbench';

// The walkthrough's problems #1, #9 and #10, done as it did them: first run with nothing
// configured, a message sent before choosing, "OpenAI or compatible" with a server on
// this machine (a scripted LM Studio, found because PEON_LOCAL_MODEL_PORTS names its
// ephemeral port), the model chip, a vLLM reached by the base URL typed, a 401 and a
// closed port. Every server is on loopback.
type Fake = Awaited<ReturnType<typeof startModelServer>>;
let lmStudio: Fake;
let vllm: Fake;
let late: Fake | undefined;
let workbench: Workbench;
const shots = path.join(artifactsDir, 'e2e');

beforeAll(async () => {
  lmStudio = await startModelServer({ flavor: 'lmstudio', models: ['qwen/qwen3-8b', 'google/gemma-3-12b'], contextLength: 8192 });
  vllm = await startModelServer({ flavor: 'vllm', models: ['Qwen/Qwen2.5-Coder-7B-Instruct'], contextLength: 16384 });
  workbench = await openPeonWorkbench({ 'index.js': 'module.exports = () => 42;\n' }, {}, { env: { PEON_LOCAL_MODEL_PORTS: String(lmStudio.port) } });
  fs.mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await workbench?.close();
  await Promise.all([lmStudio?.close(), vllm?.close(), late?.close()]);
});

const quickInput = (page: Page) => page.locator('.quick-input-widget');
/** Picks the quick pick's row whose label is `label` (its description and detail follow it in the row's name). */
async function pick(page: Page, title: string, label: string): Promise<void> {
  await expect.poll(() => quickInput(page).locator('.quick-input-title').textContent(), { timeout: UI_WAIT }).toBe(title);
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await quickInput(page).getByRole('option', { name: new RegExp(`^${escaped}(,|$)`) }).first().click();
}
const rows = (page: Page) => quickInput(page).getByRole('option');
/** Types into the open input box once its title reads `title`, and presses Enter. */
async function type(page: Page, title: string, text: string): Promise<void> {
  await expect.poll(() => quickInput(page).locator('.quick-input-title').textContent(), { timeout: UI_WAIT }).toBe(title);
  const input = quickInput(page).locator('.quick-input-box input.input');
  await input.fill(text);
  await input.press('Enter');
}
/** Drags the sash between the side bar and the editor until the side bar is `width` px wide, as a person would. */
async function sideBarWidth(page: Page, width: number): Promise<void> {
  const bar = (await page.locator('.part.sidebar').boundingBox())!;
  const y = bar.y + bar.height / 2;
  await page.mouse.move(bar.x + bar.width, y);
  await page.mouse.down();
  await page.mouse.move(bar.x + width, y, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await page.locator('.part.sidebar').boundingBox())!.width), { timeout: UI_WAIT }).toBe(width);
}
const machineSettings = () => JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(workbench.userSettingsFile)), 'Machine', 'settings.json'), 'utf8')) as Record<string, unknown>;

test('#9, #1: a message sent before setup waits; OpenAI or compatible asks where the server is, offers the one on this machine and its models, and the message is answered', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  const setup = chat.getByRole('region', { name: 'Choose a model' });
  await setup.getByRole('button', { name: 'LM Studio: qwen/qwen3-8b' }).waitFor({ timeout: UI_WAIT });

  await pickColorTheme(page, 'Dark Modern');
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain('vscode-dark');
  await sendMessage(chat, 'hello, what does this project do?');
  const waiting = chat.getByRole('alert').filter({ hasText: 'Your message waits here' });
  await waiting.waitFor({ timeout: UI_WAIT });
  expect(await waiting.textContent()).toContain('No model chosen yet. Your message waits here: it is sent once a model is chosen.');
  expect(await waiting.getByRole('button').allTextContents()).toEqual(['Select Model']);
  expect(lmStudio.requests).toEqual([]);
  await page.mouse.move(800, 600); // no tooltip over the panel
  await page.screenshot({ path: path.join(shots, 'setup-first-run-waiting-dark.png') });
  await pickColorTheme(page, 'Light Modern');
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain('vscode-light');
  await page.screenshot({ path: path.join(shots, 'setup-first-run-waiting-light.png') });

  lmStudio.script({ text: 'It exports one function that returns 42.' });
  await setup.getByRole('button', { name: 'OpenAI or compatible' }).click();
  await expect.poll(() => quickInput(page).locator('.quick-input-title').textContent(), { timeout: UI_WAIT }).toBe('OpenAI or compatible: where is the server?');
  await expect.poll(() => rows(page).count(), { timeout: UI_WAIT }).toBe(3);
  const where = await rows(page).evaluateAll((options) => options.map((o) => o.getAttribute('aria-label')));
  expect(where[0]).toMatch(new RegExp(`^LM Studio, http://127\\.0\\.0\\.1:${lmStudio.port}/v1`));
  expect(where[1]).toMatch(/^OpenAI, https:\/\/api\.openai\.com\/v1/);
  expect(where[2]).toMatch(/^Another server…/);
  await page.screenshot({ path: path.join(shots, 'setup-openai-where-light.png') });
  await pick(page, 'OpenAI or compatible: where is the server?', 'LM Studio');
  await expect.poll(() => rows(page).allTextContents(), { timeout: UI_WAIT }).toEqual([expect.stringContaining('qwen/qwen3-8b'), expect.stringContaining('google/gemma-3-12b'), expect.stringContaining('Another model…')]);
  await page.screenshot({ path: path.join(shots, 'setup-openai-models-light.png') });
  await pick(page, `Which model of 127.0.0.1:${lmStudio.port}?`, 'google/gemma-3-12b');

  // No key asked for a server on this machine: the waiting message goes, and its notice with it.
  const answers = chat.getByRole('article', { name: 'Peon' });
  await expect.poll(() => answers.allTextContents(), { timeout: UI_WAIT }).toEqual(['It exports one function that returns 42.']);
  await waiting.waitFor({ state: 'detached', timeout: UI_WAIT });
  expect(await chat.getByRole('alert').count()).toBe(0);
  expect(await setup.count()).toBe(0);
  const request = lmStudio.requests.at(-1)!.body as { model: string; messages: { role: string; content: string }[] };
  expect(request.model).toBe('google/gemma-3-12b');
  expect(request.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hello, what does this project do?']);
  // The window is LM Studio's (as loaded), not a 128k guess.
  await expect.poll(() => chat.locator('.meter').textContent(), { timeout: UI_WAIT }).toMatch(/Context 120 \/ 8\.2k/);
  expect(lmStudio.infoRequests.map((r) => r.url)).toContain('/api/v0/models/google%2Fgemma-3-12b');
  // Written where it applies in this remote window: the remote machine's settings, base URL included.
  expect(machineSettings()).toMatchObject({ 'peon.model.provider': 'openai', 'peon.model.id': 'google/gemma-3-12b', 'peon.model.baseUrl': lmStudio.openaiUrl });
  const chip = chat.getByRole('button', { name: /^Model: / });
  expect(await chip.getAttribute('aria-label')).toBe(`Model: google/gemma-3-12b, 127.0.0.1:${lmStudio.port}. Choose another model`);
  await page.screenshot({ path: path.join(shots, 'setup-chip-light.png') });
});

test('#9: the chip shows the model and switches it: Select Model, another server by its base URL, its model list', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  await pickColorTheme(page, 'Dark Modern');
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain('vscode-dark');
  const chip = chat.getByRole('button', { name: /^Model: / });
  await page.screenshot({ path: path.join(shots, 'setup-chip-dark.png') });
  await chip.click();
  await expect.poll(() => quickInput(page).locator('.quick-input-title').textContent(), { timeout: UI_WAIT }).toBe('Peon: Select Model');
  await expect.poll(async () => (await rows(page).evaluateAll((o) => o.map((x) => x.getAttribute('aria-label')))).length, { timeout: UI_WAIT }).toBe(4);
  const offered = await rows(page).evaluateAll((o) => o.map((x) => x.getAttribute('aria-label') ?? ''));
  expect(offered.map((l) => l.split(',')[0])).toEqual(['qwen/qwen3-8b', 'google/gemma-3-12b', 'Anthropic', 'OpenAI or compatible…']);
  expect(offered[1]).toContain('current');
  await page.screenshot({ path: path.join(shots, 'setup-select-model-dark.png') });
  await pick(page, 'Peon: Select Model', 'OpenAI or compatible…');
  await pick(page, 'OpenAI or compatible: where is the server?', 'Another server…');
  await type(page, 'OpenAI or compatible: the base URL', vllm.openaiUrl);
  await pick(page, `Which model of 127.0.0.1:${vllm.port}?`, 'Qwen/Qwen2.5-Coder-7B-Instruct');
  await expect.poll(() => chip.getAttribute('aria-label'), { timeout: UI_WAIT }).toBe(`Model: Qwen/Qwen2.5-Coder-7B-Instruct, 127.0.0.1:${vllm.port}. Choose another model`);

  vllm.script({ text: 'vLLM here.' });
  await sendMessage(chat, 'who answers now?');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).last().textContent(), { timeout: UI_WAIT }).toBe('vLLM here.');
  expect(vllm.requests.at(-1)?.body).toMatchObject({ model: 'Qwen/Qwen2.5-Coder-7B-Instruct' });
  await expect.poll(() => chat.locator('.meter').textContent(), { timeout: UI_WAIT }).toMatch(/Context 120 \/ 16\.4k/);
});

test('#10: a refused key offers Set API Key; the key set, Retry sends the message again and it is answered', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  await startNewChat(page);
  vllm.script({ status: 401 });
  await sendMessage(chat, 'explain index.js');
  const refused = chat.getByRole('alert').filter({ hasText: 'answered 401' });
  await refused.waitFor({ timeout: UI_WAIT });
  expect((await refused.locator('p').textContent())?.trim()).toBe('The model request failed. openai answered 401: scripted 401');
  expect(await refused.getByRole('button').allTextContents()).toEqual(['Set API Key', 'Retry']);
  await page.screenshot({ path: path.join(shots, 'setup-401-set-api-key-dark.png') });

  await refused.getByRole('button', { name: 'Set API Key' }).click();
  await type(page, 'OpenAI (or an OpenAI-compatible server) API key', 'sk-e2e-retry');
  vllm.script({ text: 'index.js exports a function returning 42.' });
  await refused.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['index.js exports a function returning 42.']);
  await refused.waitFor({ state: 'detached', timeout: UI_WAIT });
  const retried = vllm.requests.at(-1)!;
  expect(retried.headers.authorization).toBe('Bearer sk-e2e-retry');
  // Sent again, not twice: the message is in the request once.
  expect((retried.body as { messages: { role: string }[] }).messages.filter((m) => m.role === 'user')).toHaveLength(1);
});

test('#10: a closed port is named in the notice with Retry and Select Model; Retry works once the server is up', async () => {
  const { page } = workbench;
  const chat = await openPeonView(page);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1`;
  await chat.getByRole('button', { name: /^Model: / }).click();
  await pick(page, 'Peon: Select Model', 'OpenAI or compatible…');
  await pick(page, 'OpenAI or compatible: where is the server?', 'Another server…');
  await type(page, 'OpenAI or compatible: the base URL', url);
  // Nothing listens there: the model is typed.
  await type(page, `Which model of 127.0.0.1:${port}?`, 'late-model');
  await expect.poll(() => chat.getByRole('button', { name: /^Model: / }).getAttribute('aria-label'), { timeout: UI_WAIT }).toContain(`late-model, 127.0.0.1:${port}`);

  await startNewChat(page);
  await sendMessage(chat, 'are you there?');
  const unreachable = chat.getByRole('alert').filter({ hasText: 'could not be reached' });
  await unreachable.waitFor({ timeout: UI_WAIT });
  expect((await unreachable.locator('p').textContent())?.trim()).toBe(`The model request failed. openai could not be reached at ${url}: connection refused.`);
  expect(await unreachable.getByRole('button').allTextContents()).toEqual(['Retry', 'Select Model']);
  await page.screenshot({ path: path.join(shots, 'setup-unreachable-retry-dark.png') });
  // At 200 px the notice, its buttons and the chip still fit.
  await sideBarWidth(page, 200);
  const retry = (await unreachable.getByRole('button', { name: 'Select Model' }).boundingBox())!;
  const chip = (await chat.getByRole('button', { name: /^Model: / }).boundingBox())!;
  const bar = (await page.locator('.part.sidebar').boundingBox())!;
  expect(Math.max(retry.x + retry.width, chip.x + chip.width)).toBeLessThanOrEqual(bar.x + bar.width);
  await page.mouse.move(800, 600);
  await page.screenshot({ path: path.join(shots, 'setup-unreachable-200px-dark.png') });
  await pickColorTheme(page, 'Light Modern');
  await expect.poll(() => chat.locator('body').getAttribute('class'), { timeout: UI_WAIT }).toContain('vscode-light');
  await page.mouse.move(800, 600);
  await page.screenshot({ path: path.join(shots, 'setup-unreachable-200px-light.png') });

  late = await startModelServer({ port, models: ['late-model'] });
  late.script({ text: 'Here now.' });
  await unreachable.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Here now.']);
  expect(late.requests.at(-1)?.body).toMatchObject({ model: 'late-model' });
  expect(await chat.getByRole('alert').count()).toBe(0);
});
