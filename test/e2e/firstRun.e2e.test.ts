import { afterAll, beforeAll, expect, test } from 'vitest';
import { startModelServer } from '../fakes/modelServer.mjs';
import { openPeonView, openPeonWorkbench, sendMessage, UI_WAIT, type Workbench } from './workbench';

// First run with nothing configured: the panel offers the choices, including a local
// OpenAI-compatible server found on this machine (a scripted stand-in for Ollama, on an
// ephemeral port that PEON_LOCAL_MODEL_PORTS names instead of Ollama's 11434).
let ollama: Awaited<ReturnType<typeof startModelServer>>;
let workbench: Workbench;

beforeAll(async () => {
  ollama = await startModelServer({ flavor: 'ollama', models: ['llama-fake:8b'] });
  workbench = await openPeonWorkbench({}, {}, { env: { PEON_LOCAL_MODEL_PORTS: String(ollama.port) } });
});

afterAll(async () => {
  await workbench?.close();
  await ollama?.close();
});

test('the panel offers the detected local model; choosing it configures Peon and the next message is answered by it', async () => {
  const chat = await openPeonView(workbench.page);
  const choice = chat.getByRole('button', { name: 'Ollama: llama-fake:8b' });
  await choice.waitFor({ timeout: UI_WAIT });
  expect(await chat.getByRole('button', { name: 'Anthropic' }).count()).toBe(1);
  await choice.click();
  await chat.getByRole('region', { name: 'Choose a model' }).waitFor({ state: 'detached', timeout: UI_WAIT });

  ollama.script({ text: 'Hello from the local model.' });
  await sendMessage(chat, 'hi');
  await expect.poll(() => chat.getByRole('article', { name: 'Peon' }).allTextContents(), { timeout: UI_WAIT }).toEqual(['Hello from the local model.']);
  expect(await chat.getByRole('alert').count()).toBe(0); // no "not configured" notice on the way
  expect(ollama.requests.at(-1)?.body).toMatchObject({ model: 'llama-fake:8b' });
  // The meter's window is the one Ollama reports for the model (/api/show), not a 128k guess.
  await expect.poll(() => chat.locator('.meter').textContent(), { timeout: UI_WAIT }).toMatch(/Context 120 \/ 32\.8k/);
});
