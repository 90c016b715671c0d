// A model client for a provider that core speaks to through its official SDK
// (DESIGN.md §6). VS Code's own models are the extension's (vscodeLmClient).
import { anthropicClient } from './anthropicClient';
import type { ModelClient } from './modelClient';
import { openaiClient } from './openaiClient';

export interface ClientOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseUrl?: string;
  /** The window the server reported (OpenAI-compatible local servers). */
  readonly contextWindow?: number;
}

export function modelClient(provider: 'anthropic' | 'openai', options: ClientOptions): ModelClient {
  const { apiKey, model, baseUrl, contextWindow } = options;
  const common = { apiKey, model, ...(baseUrl ? { baseUrl } : {}) };
  return provider === 'anthropic' ? anthropicClient(common) : openaiClient({ ...common, ...(contextWindow ? { contextWindow } : {}) });
}
