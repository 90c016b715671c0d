import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findLocalServers } from '../../../src/core/model/localServers';
import { DEFAULT_MODELS } from '../../../src/core/model/modelInfo';
import { anthropicSetup, apiKeyAnswer, baseUrlOf, modelChoices, OPENAI_URL, openaiSetup, type InputOptions, type PickItem, type SetupUi } from '../../../src/extension/setupFlow';
import { startModelServer } from '../../fakes/modelServer.mjs';

// The steps of choosing a model, with a scripted person answering each quick pick and
// input box, against real local servers (an LM Studio found on its port, a vLLM reached
// only by the URL the person types).
type Fake = Awaited<ReturnType<typeof startModelServer>>;
let lmStudio: Fake, vllm: Fake;
beforeAll(async () => {
  [lmStudio, vllm] = await Promise.all([
    startModelServer({ flavor: 'lmstudio', models: ['qwen/qwen3-8b', 'google/gemma-3-12b'] }),
    startModelServer({ flavor: 'vllm', models: ['Qwen/Qwen2.5-Coder-7B-Instruct'] }),
  ]);
});
afterAll(async () => Promise.all([lmStudio?.close(), vllm?.close()]));

type Step = { pick: string; title: string; labels: string[]; groups: (string | undefined)[] } | { input: InputOptions };
type Answer = string | undefined | ((step: Step) => string | undefined);

/** A person answering each step in turn: a label to pick or a value to type (undefined: Escape). */
function person(...answers: Answer[]): SetupUi & { steps: Step[] } {
  const steps: Step[] = [];
  const next = (step: Step): string | undefined => {
    steps.push(step);
    if (answers.length === 0) throw new Error(`Not scripted: ${JSON.stringify(step)}`);
    const answer = answers.shift();
    return typeof answer === 'function' ? answer(step) : answer;
  };
  return {
    steps,
    async pick<T extends PickItem>(title: string, _placeHolder: string, items: readonly T[]) {
      const label = next({ pick: title, title, labels: items.map((i) => i.label), groups: items.map((i) => i.group) });
      if (label === undefined) return undefined;
      const item = items.find((i) => i.label === label);
      if (!item) throw new Error(`No item "${label}" in ${items.map((i) => i.label).join(', ')}`);
      return item;
    },
    async input(options) {
      return next({ input: options });
    },
  };
}

const titles = (steps: Step[]) => steps.map((s) => ('pick' in s ? `pick: ${s.title}` : `input: ${s.input.title}`));

describe('OpenAI or compatible', () => {
  test('a server found on this machine: its models offered, no key asked; the base URL is kept', async () => {
    const servers = await findLocalServers([lmStudio.port]);
    const ui = person('LM Studio', 'google/gemma-3-12b');
    const result = await openaiSetup(ui, servers, {}, false);
    expect(result).toEqual({ provider: 'openai', model: 'google/gemma-3-12b', baseUrl: lmStudio.openaiUrl });
    expect(titles(ui.steps)).toEqual(['pick: OpenAI or compatible: where is the server?', `pick: Which model of 127.0.0.1:${lmStudio.port}?`]);
    const [where, which] = ui.steps as Extract<Step, { pick: string }>[];
    expect(where!.labels).toEqual(['LM Studio', 'OpenAI', 'Another server…']);
    expect(where!.groups).toEqual(['On this machine', 'Elsewhere', 'Elsewhere']);
    expect(which!.labels).toEqual(['qwen/qwen3-8b', 'google/gemma-3-12b', 'Another model…']);
  });

  test('a base URL typed: checked as typed, a server on this machine lists its models', async () => {
    let checked: (string | undefined)[] = [];
    const ui = person(
      'Another server…',
      (step) => {
        const validate = 'input' in step ? step.input.validate : undefined;
        checked = ['127.0.0.1:8000', 'ftp://127.0.0.1/v1', 'http://user:sk-secret@127.0.0.1/v1', `${vllm.openaiUrl}/`].map((v) => validate?.(v));
        return `${vllm.openaiUrl}/`;
      },
      'Qwen/Qwen2.5-Coder-7B-Instruct',
    );
    const result = await openaiSetup(ui, [], {}, true);
    expect(checked).toEqual([
      'Type the whole URL, with http:// or https:// (http://127.0.0.1:1234/v1).',
      'Peon talks to model servers over http:// or https:// only.',
      'Leave the key out of the URL: Peon asks for it next and keeps it in SecretStorage.',
      undefined,
    ]);
    expect(result).toEqual({ provider: 'openai', model: 'Qwen/Qwen2.5-Coder-7B-Instruct', baseUrl: vllm.openaiUrl });
  });

  test('a server elsewhere with no key stored: an empty key is questioned, then left out or typed after all', async () => {
    const without = person('Another server…', 'https://openrouter.example/api/v1', 'qwen/qwen3-coder', '', 'Continue without a key');
    expect(await openaiSetup(without, [], {}, false)).toEqual({ provider: 'openai', model: 'qwen/qwen3-coder', baseUrl: 'https://openrouter.example/api/v1' });
    expect(titles(without.steps).slice(2)).toEqual(['input: Which model of openrouter.example?', 'input: openrouter.example API key', 'pick: No API key for openrouter.example?']);

    const typed = person('Another server…', 'https://openrouter.example/api/v1', 'qwen/qwen3-coder', '', 'Enter a key', ' sk-or-123 ');
    expect(await openaiSetup(typed, [], {}, false)).toMatchObject({ key: 'sk-or-123' });

    const escaped = person('Another server…', 'https://openrouter.example/api/v1', 'qwen/qwen3-coder', '', undefined);
    expect(await openaiSetup(escaped, [], {}, false)).toBeUndefined();
  });

  test('OpenAI itself: the current default model offered, and an empty key keeps the stored one', async () => {
    const ui = person('OpenAI', (step) => ('input' in step ? step.input.value : undefined), '');
    expect(await openaiSetup(ui, [], {}, true)).toEqual({ provider: 'openai', model: DEFAULT_MODELS.openai, baseUrl: OPENAI_URL });
    expect(ui.steps[2]).toMatchObject({ input: { password: true, prompt: expect.stringContaining('Leave empty to keep the key stored now') } });
  });

  test('the URL set now is offered again, with the model set now', async () => {
    const current = { provider: 'openai', model: 'my-model', baseUrl: 'https://proxy.example/v1' };
    const ui = person('As set now', (step) => ('input' in step ? step.input.value : undefined), 'sk-1');
    expect(await openaiSetup(ui, [], current, false)).toEqual({ provider: 'openai', model: 'my-model', baseUrl: 'https://proxy.example/v1', key: 'sk-1' });
  });

  test('a server on this machine that lists nothing: the model is typed, and Escape anywhere changes nothing', async () => {
    const ui = person('Another server…', 'http://127.0.0.1:9/v1', (step) => ('input' in step ? step.input.prompt : undefined));
    expect(await openaiSetup(ui, [], {}, false)).toEqual({ provider: 'openai', model: 'http://127.0.0.1:9/v1/models did not answer: type the model\'s name as the server spells it.', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await openaiSetup(person(undefined), [], {}, false)).toBeUndefined();
    expect(await openaiSetup(person('OpenAI', undefined), [], {}, false)).toBeUndefined();
  });
});

describe('Anthropic and Set API Key', () => {
  test("Anthropic offers its current default model, and needs a key: an empty one is asked again, never 'continue without'", async () => {
    const ui = person((step) => ('input' in step ? step.input.value : undefined), '', 'Enter a key', 'sk-ant-1');
    expect(await anthropicSetup(ui, {}, false)).toEqual({ provider: 'anthropic', model: DEFAULT_MODELS.anthropic, key: 'sk-ant-1' });
    expect(ui.steps[2]).toMatchObject({ labels: ['Enter a key'] });
  });

  test('an empty key removes the stored one only when the person confirms', async () => {
    expect(await apiKeyAnswer(person(' sk-2 '), 'OpenAI', true)).toEqual({ store: 'sk-2' });
    expect(await apiKeyAnswer(person('', 'Keep it'), 'OpenAI', true)).toBeUndefined();
    expect(await apiKeyAnswer(person('', 'Remove the key'), 'OpenAI', true)).toEqual({ remove: true });
    expect(await apiKeyAnswer(person(''), 'OpenAI', false)).toBeUndefined();
  });
});

test("Select Model lists VS Code's models, each local server's under its name, then the providers; the current one is marked", () => {
  const items = modelChoices(
    [{ name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', models: ['qwen3:8b', 'llama3.2:3b'] }],
    [{ id: 'copilot-gpt', name: 'GPT (copilot)' }],
    { provider: 'openai', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/v1' },
  );
  expect(items.map((i) => [i.group, i.label, i.description])).toEqual([
    ["VS Code's language models", 'GPT (copilot)', undefined],
    ['Ollama on this machine (127.0.0.1:11434)', 'qwen3:8b', 'current'],
    ['Ollama on this machine (127.0.0.1:11434)', 'llama3.2:3b', undefined],
    ['More', 'Anthropic', undefined],
    ['More', 'OpenAI or compatible…', undefined],
  ]);
  expect(items[1]!.choice).toEqual({ choice: 'local', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/v1' });
  expect(baseUrlOf(' http://127.0.0.1:1234/v1/ ')).toEqual({ url: 'http://127.0.0.1:1234/v1' });
});
