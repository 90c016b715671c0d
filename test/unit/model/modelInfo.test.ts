import { describe, expect, test, vi } from 'vitest';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import { contextWindowOf, costOf, DEFAULT_MODELS, priceOf } from '../../../src/core/model/modelInfo';
import { startModelServer } from '../../fakes/modelServer.mjs';

describe('priceOf: list prices only for the official endpoints, the user price always', () => {
  test('official Anthropic and OpenAI models, with and without a date snapshot', () => {
    expect(priceOf('anthropic', 'claude-sonnet-4-5-20250929', undefined)).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(priceOf('anthropic', 'claude-opus-4-1', 'https://api.anthropic.com')).toMatchObject({ input: 15, output: 75 });
    expect(priceOf('anthropic', 'claude-opus-4-5-20251101', undefined)).toMatchObject({ input: 5, output: 25 });
    expect(priceOf('anthropic', 'claude-3-5-haiku-latest', undefined)).toMatchObject({ input: 0.8, output: 4 });
    expect(priceOf('openai', 'gpt-4o-mini-2024-07-18', undefined)).toEqual({ input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 });
    expect(priceOf('openai', 'gpt-4o', 'https://api.openai.com/v1')).toMatchObject({ input: 2.5 });
  });

  test('a model that is not listed has no price, even when its name starts like one that is', () => {
    expect(priceOf('openai', 'gpt-5.1', undefined)).toBeUndefined();
    expect(priceOf('anthropic', 'claude-opus-4-7', undefined)).toBeUndefined();
    expect(priceOf('openai', 'llama3.1:8b', undefined)).toBeUndefined();
  });

  test('any other endpoint (a proxy, OpenRouter, a local server, vscode-lm) has no list price', () => {
    expect(priceOf('openai', 'gpt-4o', 'https://openrouter.ai/api/v1')).toBeUndefined();
    expect(priceOf('openai', 'gpt-4o', 'http://127.0.0.1:11434/v1')).toBeUndefined();
    expect(priceOf('anthropic', 'claude-sonnet-4-5', 'https://api.anthropic.com.evil.example')).toBeUndefined();
    expect(priceOf('vscode-lm', 'gpt-4o', undefined)).toBeUndefined();
  });

  test('the user price wins; its cache prices default to the input price', () => {
    expect(priceOf('openai', 'llama3.1:8b', 'http://127.0.0.1:11434/v1', { input: 0, output: 0 })).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(priceOf('anthropic', 'claude-sonnet-4-5', undefined, { input: 2, output: 10, cacheRead: 0.2 })).toEqual({ input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2 });
  });
});

test('costOf counts each token class once at its own price', () => {
  const usage = { inputTokens: 200, outputTokens: 40, cacheReadTokens: 80, cacheWriteTokens: 20 };
  expect(costOf(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBeCloseTo((200 * 3 + 40 * 15 + 80 * 0.3 + 20 * 3.75) / 1e6, 12);
  expect(costOf({ inputTokens: 1e6, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 })).toBe(3);
});

test('contextWindowOf knows the families and falls back to 128k', () => {
  expect(contextWindowOf('claude-sonnet-4-5-20250929')).toBe(200_000);
  expect(contextWindowOf('anthropic/claude-3.5-sonnet')).toBe(200_000);
  expect(contextWindowOf('gpt-4.1-mini')).toBe(1_047_576);
  expect(contextWindowOf('gpt-5-mini')).toBe(400_000);
  expect(contextWindowOf('gpt-4o')).toBe(128_000);
  expect(contextWindowOf('qwen2.5-coder:7b')).toBe(128_000);
});

test("the default models are current: the Anthropic SDK does not call its default deprecated (it does the old one)", async () => {
  const server = await startModelServer();
  const warnings: string[] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
  try {
    const ask = async (model: string): Promise<void> => {
      server.script({ text: 'ok' });
      for await (const _ of anthropicClient({ apiKey: 'k', model, baseUrl: server.anthropicUrl }).stream({ system: 's', history: [{ role: 'user', text: 'hi' }], tools: [], maxTokens: 10 }, new AbortController().signal));
    };
    await ask(DEFAULT_MODELS.anthropic);
    expect(warnings.filter((w) => w.includes('deprecated'))).toEqual([]);
    await ask('claude-sonnet-4-5');
    expect(warnings.filter((w) => w.includes('deprecated'))).toHaveLength(1);
  } finally {
    warn.mockRestore();
    await server.close();
  }
  expect(contextWindowOf(DEFAULT_MODELS.anthropic)).toBe(200_000);
  expect(contextWindowOf(DEFAULT_MODELS.openai)).toBe(400_000);
});
