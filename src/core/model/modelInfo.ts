// What Peon knows about a model without asking it: its context window and, for the
// official Anthropic and OpenAI endpoints, its list price. Prices are the providers'
// published prices per million tokens as of the date below; a model not listed, or
// any other endpoint (OpenRouter, a proxy, a local server), has no known price unless
// the user sets `peon.model.price`. An unknown cost is shown as unknown, never as $0.
import type { ModelClient, Usage } from './modelClient';

/**
 * The model each provider's setup offers first: current models, as the providers' SDKs
 * list them (test/unit/model/modelInfo.test.ts fails when the SDK calls one deprecated).
 * The only place these names are written.
 */
export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-5.5' } as const;

/** USD per million tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

export const PRICES_AS_OF = '2025-11';

const anthropic = (input: number, output: number): Price => ({ input, output, cacheRead: input / 10, cacheWrite: input * 1.25 });
const openai = (input: number, output: number, cacheRead: number): Price => ({ input, output, cacheRead, cacheWrite: 0 });

/** By model id: the id itself, or it with a date snapshot or `-latest` after it. */
const PRICES: Readonly<Record<'anthropic' | 'openai', Readonly<Record<string, Price>>>> = {
  anthropic: {
    'claude-opus-4-5': anthropic(5, 25),
    'claude-opus-4-1': anthropic(15, 75),
    'claude-opus-4': anthropic(15, 75),
    'claude-sonnet-4-5': anthropic(3, 15),
    'claude-sonnet-4': anthropic(3, 15),
    'claude-3-7-sonnet': anthropic(3, 15),
    'claude-3-5-sonnet': anthropic(3, 15),
    'claude-haiku-4-5': anthropic(1, 5),
    'claude-3-5-haiku': anthropic(0.8, 4),
    'claude-3-haiku': anthropic(0.25, 1.25),
  },
  openai: {
    'gpt-5-nano': openai(0.05, 0.4, 0.005),
    'gpt-5-mini': openai(0.25, 2, 0.025),
    'gpt-5': openai(1.25, 10, 0.125),
    'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
    'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
    'gpt-4.1': openai(2, 8, 0.5),
    'gpt-4o-mini': openai(0.15, 0.6, 0.075),
    'gpt-4o': openai(2.5, 10, 1.25),
    'o4-mini': openai(1.1, 4.4, 0.275),
    'o3-mini': openai(1.1, 4.4, 0.55),
    o3: openai(2, 8, 0.5),
  },
};

const OFFICIAL_HOSTS = { anthropic: 'api.anthropic.com', openai: 'api.openai.com' } as const;

/** `gpt-4o-2024-08-06` and `claude-3-5-haiku-latest` are their families; `gpt-5.1` is not `gpt-5`. */
const SNAPSHOT = /^(?:-\d{4}-?\d{2}-?\d{2}|-latest)?$/;

function exactFamily<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  for (const [family, value] of Object.entries(table)) if (model.startsWith(family) && SNAPSHOT.test(model.slice(family.length))) return value;
  return undefined;
}

function longestPrefix<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(table)) if (model.startsWith(prefix) && prefix.length > (best?.length ?? -1)) best = prefix;
  return best === undefined ? undefined : table[best];
}

/** `peon.model.price`: cache reads and writes cost the input price unless given. */
export interface UserPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number | undefined;
  readonly cacheWrite?: number | undefined;
}

/**
 * The price of `model` on `provider`: the user's own (`peon.model.price`) when set,
 * else the list price when the endpoint is the provider's official one, else unknown.
 */
export function priceOf(provider: string, model: string, baseUrl: string | undefined, user?: UserPrice): Price | undefined {
  if (user) return { input: user.input, output: user.output, cacheRead: user.cacheRead ?? user.input, cacheWrite: user.cacheWrite ?? user.input };
  if (provider !== 'anthropic' && provider !== 'openai') return undefined;
  if (baseUrl !== undefined) {
    let host: string;
    try {
      host = new URL(baseUrl).hostname;
    } catch {
      return undefined;
    }
    if (host !== OFFICIAL_HOSTS[provider]) return undefined;
  }
  return exactFamily(PRICES[provider], model.toLowerCase());
}

/** USD for `usage` at `price`; each token class once (cache reads are not input again). */
export function costOf(usage: Usage, price: Price): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output + usage.cacheReadTokens * price.cacheRead + usage.cacheWriteTokens * price.cacheWrite) / 1e6;
}

const WINDOWS: Readonly<Record<string, number>> = {
  claude: 200_000,
  'gpt-4.1': 1_047_576,
  'gpt-5': 400_000,
  'gpt-4o': 128_000,
  o3: 200_000,
  'o4-mini': 200_000,
};

/** The model's context window in tokens (128k when the model is not known). */
export function contextWindowOf(model: string): number {
  const id = model.toLowerCase();
  const known = longestPrefix(WINDOWS, id) ?? (id.includes('claude') ? WINDOWS.claude : undefined);
  return known ?? 128_000;
}

/** The client's context window: as its API reports it, else as the table knows it. */
export const windowOf = (client: ModelClient): number => client.contextWindow ?? contextWindowOf(client.model);
