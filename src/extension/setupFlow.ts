// The steps of choosing a model, over a small UI interface (modelFromSettings.ts gives
// VS Code's quick picks and input boxes; the unit tests a scripted one): what the first
// run and Select Model offer, the OpenAI-compatible setup (where the server is, which of
// its models, a key only where one is needed) and Anthropic's, and what an API key
// answer means. Nothing here writes settings or secrets: the caller does.
import { isLoopbackUrl, listModels, type LocalServer } from '../core/model/localServers';
import { DEFAULT_MODELS } from '../core/model/modelInfo';

export interface PickItem {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** Items of one group follow a separator with this label. */
  readonly group?: string;
}

export interface InputOptions {
  readonly title: string;
  readonly prompt: string;
  readonly value?: string;
  readonly placeHolder?: string;
  readonly password?: boolean;
  /** A message when the value will not do (the box stays open), else undefined. */
  readonly validate?: (value: string) => string | undefined;
}

export interface SetupUi {
  pick<T extends PickItem>(title: string, placeHolder: string, items: readonly T[]): Promise<T | undefined>;
  input(options: InputOptions): Promise<string | undefined>;
}

/** A choice of the first-run buttons or of Select Model. */
export type SetupChoice = { choice: 'anthropic' | 'openai' } | { choice: 'vscode-lm'; model: string } | { choice: 'local'; model: string; baseUrl: string };

/** What a setup writes: the model, its base URL (none: the provider's own), and a new key to keep (none: the stored one stays). */
export interface SetupResult {
  readonly provider: 'anthropic' | 'openai';
  readonly model: string;
  readonly baseUrl?: string;
  readonly key?: string;
}

/** The settings as they are, so a setup starts from them. */
export interface CurrentModel {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
}

export const OPENAI_URL = 'https://api.openai.com/v1';
const PROVIDER_LABELS = { anthropic: 'Anthropic', openai: 'OpenAI' } as const;

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};
const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
const listed = (models: readonly string[]): string => `${plural(models.length, 'model')}: ${models.slice(0, 3).join(', ')}${models.length > 3 ? ', …' : ''}`;

/** A base URL as typed: an http(s) URL, without its trailing slash; or why not. */
export function baseUrlOf(typed: string): { url: string } | { problem: string } {
  const text = typed.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'Type the whole URL, with http:// or https:// (http://127.0.0.1:1234/v1).' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'Peon talks to model servers over http:// or https:// only.' };
  if (url.username || url.password) return { problem: 'Leave the key out of the URL: Peon asks for it next and keeps it in SecretStorage.' };
  return { url: text.replace(/\/+$/, '') };
}

/** Select Model's list: VS Code's models, each local server's, then the providers that ask for more. */
export function modelChoices(servers: readonly LocalServer[], languageModels: readonly { id: string; name: string }[], current: CurrentModel): (PickItem & { choice: SetupChoice })[] {
  const isCurrent = (provider: string, model: string, baseUrl?: string): string | undefined =>
    current.provider === provider && current.model === model && (baseUrl === undefined || current.baseUrl === baseUrl) ? 'current' : undefined;
  const withDescription = (description: string | undefined) => (description ? { description } : {});
  return [
    ...languageModels.map((m) => ({ label: m.name, ...withDescription(isCurrent('vscode-lm', m.id)), group: "VS Code's language models", choice: { choice: 'vscode-lm' as const, model: m.id } })),
    ...servers.flatMap((s) =>
      s.models.map((model) => ({ label: model, ...withDescription(isCurrent('openai', model, s.baseUrl)), group: `${s.name} on this machine (${hostOf(s.baseUrl)})`, choice: { choice: 'local' as const, model, baseUrl: s.baseUrl } })),
    ),
    { label: 'Anthropic', detail: 'Claude, with an API key', group: 'More', choice: { choice: 'anthropic' as const } },
    { label: 'OpenAI or compatible…', detail: 'OpenAI, OpenRouter, a proxy, or a local server at a URL you type', group: 'More', choice: { choice: 'openai' as const } },
  ];
}

type KeyAnswer = { key: string } | { keep: true };

/**
 * Asks for the key of `host`. Empty keeps the stored key; empty with none stored is
 * questioned: typed after all, or (where the server may need none) left out.
 */
async function askKey(ui: SetupUi, what: string, stored: boolean, optional: boolean): Promise<KeyAnswer | undefined> {
  for (;;) {
    const typed = await ui.input({
      title: `${what} API key`,
      password: true,
      prompt: stored ? 'Kept in VS Code SecretStorage. Leave empty to keep the key stored now.' : 'Kept in VS Code SecretStorage, never in settings files.',
    });
    if (typed === undefined) return undefined;
    if (typed.trim() !== '') return { key: typed.trim() };
    if (stored) return { keep: true };
    const items = [
      { label: 'Enter a key', again: true },
      ...(optional ? [{ label: 'Continue without a key', detail: 'Only for a server that needs none: one that does refuses every request (401).', again: false }] : []),
    ];
    const answer = await ui.pick(`No API key for ${what}?`, optional ? 'Most servers off this machine need one.' : `${what} needs a key.`, items);
    if (!answer) return undefined;
    if (!answer.again) return { keep: true };
  }
}

/** Anthropic: which model (the current one, else the default), and its key. */
export async function anthropicSetup(ui: SetupUi, current: CurrentModel, storedKey: boolean): Promise<SetupResult | undefined> {
  const model = await ui.input({ title: 'Anthropic: which model?', prompt: 'The model name as Anthropic spells it.', value: current.provider === 'anthropic' && current.model ? current.model : DEFAULT_MODELS.anthropic });
  if (!model?.trim()) return undefined;
  const key = await askKey(ui, PROVIDER_LABELS.anthropic, storedKey, false);
  if (!key) return undefined;
  return { provider: 'anthropic', model: model.trim(), ...('key' in key ? { key: key.key } : {}) };
}

/**
 * OpenAI or compatible: where the server is (the servers answering on this machine,
 * OpenAI, the URL set now, or one typed), which model (the server's list when it is on
 * this machine), and a key unless the server is on this machine.
 */
export async function openaiSetup(ui: SetupUi, servers: readonly LocalServer[], current: CurrentModel, storedKey: boolean): Promise<SetupResult | undefined> {
  const now = current.provider === 'openai' ? current.baseUrl : undefined;
  const places: (PickItem & { url?: string })[] = [
    ...servers.map((s) => ({ label: s.name, description: s.baseUrl, detail: listed(s.models), group: 'On this machine', url: s.baseUrl })),
    ...(now && now !== OPENAI_URL && !servers.some((s) => s.baseUrl === now) ? [{ label: 'As set now', description: now, group: 'Elsewhere', url: now }] : []),
    { label: 'OpenAI', description: OPENAI_URL, group: 'Elsewhere', url: OPENAI_URL },
    { label: 'Another server…', detail: 'Type its base URL: OpenRouter, a proxy, or a server on another port', group: 'Elsewhere' },
  ];
  const place = await ui.pick('OpenAI or compatible: where is the server?', 'The base URL Peon sends requests to', places);
  if (!place) return undefined;
  let baseUrl = place.url;
  if (baseUrl === undefined) {
    const typed = await ui.input({
      title: 'OpenAI or compatible: the base URL',
      prompt: 'Where the server answers OpenAI Chat Completions: http://127.0.0.1:1234/v1 (LM Studio), https://openrouter.ai/api/v1, …',
      value: now ?? '',
      placeHolder: 'http://127.0.0.1:8000/v1',
      validate: (value) => {
        const parsed = baseUrlOf(value);
        return 'problem' in parsed ? parsed.problem : undefined;
      },
    });
    if (typed === undefined) return undefined;
    const parsed = baseUrlOf(typed);
    if ('problem' in parsed) return undefined;
    baseUrl = parsed.url;
  }
  const local = isLoopbackUrl(baseUrl);
  const model = await chooseModel(ui, baseUrl, local ? (servers.find((s) => s.baseUrl === baseUrl)?.models ?? (await listModels(baseUrl))) : undefined, current);
  if (!model) return undefined;
  // A server on this machine needs no key (and is not asked for one).
  const key = local ? { keep: true as const } : await askKey(ui, baseUrl === OPENAI_URL ? PROVIDER_LABELS.openai : hostOf(baseUrl), storedKey, baseUrl !== OPENAI_URL);
  if (!key) return undefined;
  return { provider: 'openai', model, baseUrl, ...('key' in key ? { key: key.key } : {}) };
}

/** One of the models the server lists, or (none listed, or "another") a name typed. */
async function chooseModel(ui: SetupUi, baseUrl: string, models: readonly string[] | undefined, current: CurrentModel): Promise<string | undefined> {
  const same = current.provider === 'openai' && current.baseUrl === baseUrl ? current.model : undefined;
  if (models && models.length > 0) {
    const items = [
      ...models.map((m) => ({ label: m, ...(m === same ? { description: 'current' } : {}), model: m })),
      { label: 'Another model…', detail: 'Type its name', model: undefined },
    ];
    const picked = await ui.pick(`Which model of ${hostOf(baseUrl)}?`, `${plural(models.length, 'model')} listed by ${baseUrl}/models`, items);
    if (!picked) return undefined;
    if (picked.model) return picked.model;
  }
  const typed = await ui.input({
    title: `Which model of ${hostOf(baseUrl)}?`,
    prompt: models === undefined && isLoopbackUrl(baseUrl) ? `${baseUrl}/models did not answer: type the model's name as the server spells it.` : 'The model name as the server spells it.',
    value: same ?? (baseUrl === OPENAI_URL ? DEFAULT_MODELS.openai : ''),
  });
  return typed?.trim() || undefined;
}

/** Set API Key: a key to keep, the stored one removed (asked first), or nothing to do. */
export async function apiKeyAnswer(ui: SetupUi, what: string, stored: boolean): Promise<{ store: string } | { remove: true } | undefined> {
  const typed = await ui.input({ title: `${what} API key`, password: true, prompt: stored ? 'Kept in VS Code SecretStorage. Leave empty to remove the stored key.' : 'Kept in VS Code SecretStorage, never in settings files.' });
  if (typed === undefined) return undefined;
  if (typed.trim() !== '') return { store: typed.trim() };
  if (!stored) return undefined;
  const answer = await ui.pick(`Remove the stored ${what} key?`, 'Requests that need it are refused until a key is set again.', [{ label: 'Remove the key', remove: true }, { label: 'Keep it', remove: false }]);
  return answer?.remove ? { remove: true } : undefined;
}
