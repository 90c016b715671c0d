// The built webview in headless Chromium: the model chip beside the composer, the
// first-run choices, and notices with their buttons (a refused key, a server that cannot
// be reached, a message waiting for a model), checked by what the panel shows and posts.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

const local = { state: 'configured', provider: 'openai', model: 'qwen2.5-coder:7b', endpoint: '127.0.0.1:11434' } as const;

test('the chip names the model and where it runs, follows a change, and a click asks for the choices', async () => {
  const view = await openStandaloneWebview(browser, { width: 300 });
  await view.send({ type: 'init', entries: [], model: local });
  const chip = view.page.getByRole('button', { name: /^Model: / });
  expect(await chip.getAttribute('aria-label')).toBe('Model: qwen2.5-coder:7b, 127.0.0.1:11434. Choose another model');
  expect((await chip.textContent())?.replace(/\s+/g, ' ').trim()).toBe('qwen2.5-coder:7b 127.0.0.1:11434 ▾');
  // It sits right above the composer.
  const [chipBox, composerBox] = await Promise.all([chip.boundingBox(), view.page.getByRole('textbox', { name: 'Message Peon' }).boundingBox()]);
  expect(composerBox!.y - (chipBox!.y + chipBox!.height)).toBeLessThan(16);

  for (const [model, label] of [
    [{ state: 'configured', provider: 'openai', model: 'gpt-5.5' }, 'Model: gpt-5.5, OpenAI. Choose another model'],
    [{ state: 'configured', provider: 'openai', model: 'gpt-5.5', endpoint: 'api.openai.com' }, 'Model: gpt-5.5, OpenAI. Choose another model'],
    [{ state: 'configured', provider: 'anthropic', model: 'claude-sonnet-5-5' }, 'Model: claude-sonnet-5-5, Anthropic. Choose another model'],
    [{ state: 'configured', provider: 'vscode-lm', model: 'copilot-gpt' }, 'Model: copilot-gpt, VS Code. Choose another model'],
    [{ state: 'unconfigured' }, 'Model: No model yet. Choose another model'],
  ] as const) {
    await view.send({ type: 'model', model });
    await expect.poll(() => chip.getAttribute('aria-label')).toBe(label);
  }
  await chip.click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'selectModel' });
  // A long model name is cut, not wrapped or pushed out of the panel.
  await view.send({ type: 'model', model: { ...local, model: 'hf.co/bartowski/Qwen2.5-Coder-32B-Instruct-GGUF:Q4_K_M-with-a-very-long-tag' } });
  const box = await chip.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(300);
  expect(box!.height).toBeLessThan(30);
  // Narrow, the host gives way before the model's name.
  await view.send({ type: 'model', model: { ...local, model: 'late-model', endpoint: '127.0.0.1:33811' } });
  await view.page.setViewportSize({ width: 170, height: 800 });
  const cut = await chip.evaluate((b) => [...b.children].map((c) => c.scrollWidth > c.clientWidth));
  expect(cut).toEqual([false, true, false]);
  await view.page.close();
}, 30_000);

test('first run: each local server by name with its models; a click posts the model and its server', async () => {
  const view = await openStandaloneWebview(browser);
  await view.send([
    { type: 'init', entries: [], model: { state: 'unconfigured' } },
    {
      type: 'localModels',
      servers: [
        { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen3:8b'] },
        { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', models: ['google/gemma-3-12b'] },
      ],
      languageModels: [],
    },
  ]);
  const choices = view.page.getByRole('region', { name: 'Choose a model' }).getByRole('button');
  await expect.poll(() => choices.allTextContents()).toEqual(['Ollama: qwen3:8b', 'LM Studio: google/gemma-3-12b', 'Anthropic', 'OpenAI or compatible']);
  await choices.nth(1).click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'setup', choice: 'local', model: 'google/gemma-3-12b', baseUrl: 'http://127.0.0.1:1234/v1' });
  await choices.nth(3).click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'setup', choice: 'openai' });
  await view.send({ type: 'model', model: local });
  await view.page.getByRole('region', { name: 'Choose a model' }).waitFor({ state: 'detached' });
  await view.page.close();
}, 30_000);

test("a notice's buttons post the action with the notice's id; a notice taken away goes; a notice without actions has no buttons", async () => {
  const view = await openStandaloneWebview(browser, { width: 200 });
  await view.send({
    type: 'init',
    model: local,
    entries: [
      { kind: 'user', id: 'e1', text: 'hello' },
      { kind: 'notice', id: 'e2', level: 'warning', text: 'The model request failed. openai answered 401: Incorrect API key provided', actions: ['setApiKey', 'retry'] },
      { kind: 'notice', id: 'e3', level: 'info', text: 'Stopped.' },
    ],
  });
  const failed = view.page.getByRole('alert').filter({ hasText: 'answered 401' });
  expect(await failed.getByRole('button').allTextContents()).toEqual(['Set API Key', 'Retry']);
  expect(await view.page.getByRole('status').filter({ hasText: 'Stopped.' }).getByRole('button').count()).toBe(0);
  await failed.getByRole('button', { name: 'Set API Key' }).click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'noticeAction', entryId: 'e2', action: 'setApiKey' });
  // At 200 px both buttons stay inside the notice.
  const [notice, retry] = await Promise.all([failed.boundingBox(), failed.getByRole('button', { name: 'Retry' }).boundingBox()]);
  expect(retry!.x + retry!.width).toBeLessThanOrEqual(notice!.x + notice!.width);
  await failed.getByRole('button', { name: 'Retry' }).click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'noticeAction', entryId: 'e2', action: 'retry' });

  await view.send([
    { type: 'append', entry: { kind: 'notice', id: 'e4', level: 'warning', text: 'The model request failed. openai could not be reached at http://127.0.0.1:41234/v1/with/a/long/path: connection refused.', actions: ['retry', 'selectModel'] } },
    { type: 'remove', id: 'e2' },
    { type: 'append', entry: { kind: 'assistant', id: 'e5', text: 'Back again.' } },
  ]);
  await failed.waitFor({ state: 'detached' });
  const unreachable = view.page.getByRole('alert').filter({ hasText: 'could not be reached' });
  expect(await unreachable.getByRole('button').allTextContents()).toEqual(['Retry', 'Select Model']);
  // The URL wraps inside the notice at 200 px instead of running out of it.
  expect(await unreachable.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await unreachable.getByRole('button', { name: 'Select Model' }).click();
  expect((await view.posted()).at(-1)).toEqual({ type: 'noticeAction', entryId: 'e4', action: 'selectModel' });
  // Entries after the one taken away are still found by id: the reply streams into its own message.
  await view.send({ type: 'delta', id: 'e5', text: ' And more.' });
  await expect.poll(() => view.page.getByRole('article', { name: 'Peon' }).textContent()).toBe('Back again. And more.');
  await view.page.close();
}, 30_000);
