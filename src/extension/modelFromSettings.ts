import * as vscode from 'vscode';
import type { ModelClient } from '../core/model/modelClient';
import { runtime } from './runtime';
import { availableLmModels, vscodeLmClient } from './vscodeLmClient';
import type { SettingValues } from '../core/settings';

export const SECRET_KEYS = { anthropic: 'peon.apiKey.anthropic', openai: 'peon.apiKey.openai' } as const;

/** The model the user configured (user-scope settings, key from SecretStorage), or why there is none. */
export async function modelFromSettings(values: SettingValues, secrets: vscode.SecretStorage): Promise<ModelClient | { problem: string }> {
  const provider = values['peon.model.provider'];
  const model = values['peon.model.id'];
  const baseUrl = values['peon.model.baseUrl'];
  if (!provider) return { problem: 'No model configured yet. Set peon.model.provider and peon.model.id in your user settings.' };
  if (provider === 'vscode-lm') {
    const [chosen] = await availableLmModels(model ? { id: model } : {});
    if (chosen) return vscodeLmClient(chosen);
    return { problem: model ? `VS Code offers no language model "${model}" now; run "Peon: Select Model" to pick one.` : 'VS Code offers no language model: install one (GitHub Copilot Chat, for example) or choose Anthropic or OpenAI with "Peon: Select Model".' };
  }
  if (!model) return { problem: `Set peon.model.id to the ${provider} model to use.` };
  const key = await secrets.get(SECRET_KEYS[provider]);
  if (provider === 'anthropic') {
    if (!key) return { problem: 'No Anthropic API key yet: run "Peon: Set API Key".' };
    return runtime().modelClient('anthropic', { apiKey: key, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  // A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp) needs no key.
  if (!key && !baseUrl) return { problem: 'No OpenAI API key yet: run "Peon: Set API Key" (or set peon.model.baseUrl for a local server).' };
  return runtime().modelClient('openai', { apiKey: key ?? 'none', model, ...(baseUrl ? { baseUrl } : {}) });
}

const PROVIDERS = [
  { label: 'Anthropic', provider: 'anthropic' as const, model: 'claude-sonnet-4-5' },
  { label: 'OpenAI (or an OpenAI-compatible server)', provider: 'openai' as const, model: 'gpt-4.1' },
];

/** Asks for a provider's key (the provider too, unless given) and keeps it in SecretStorage. Returns false if dismissed. */
export async function setApiKey(secrets: vscode.SecretStorage, given?: 'anthropic' | 'openai'): Promise<boolean> {
  const provider = given ? PROVIDERS.find((p) => p.provider === given) : await vscode.window.showQuickPick(PROVIDERS, { title: 'Peon: Set API Key', placeHolder: 'Which provider is the key for?' });
  if (!provider) return false;
  const key = await vscode.window.showInputBox({ title: `${provider.label} API key`, password: true, ignoreFocusOut: true, prompt: 'Kept in VS Code SecretStorage, never in settings files.' });
  if (key === undefined) return false;
  if (key.trim() === '') await secrets.delete(SECRET_KEYS[provider.provider]);
  else await secrets.store(SECRET_KEYS[provider.provider], key.trim());
  return true;
}

/** Where a local Ollama answers with its OpenAI-compatible API (loopback only). */
export const OLLAMA_URL = 'http://127.0.0.1:11434/v1';

/** The models a local Ollama offers, or none (nothing is listening, or it does not answer within a second). */
export async function detectLocalModels(): Promise<string[]> {
  try {
    const response = await fetch(`${OLLAMA_URL}/models`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string' && id !== '').slice(0, 20);
  } catch {
    return [];
  }
}

/** A first-run choice, written to user settings (never the workspace's). */
export type SetupChoice = { choice: 'anthropic' | 'openai' } | { choice: 'local' | 'vscode-lm'; model: string };

/** What the first run and "Peon: Select Model" offer besides Anthropic and OpenAI: a local Ollama's models and VS Code's. */
export async function setupChoices(): Promise<{ models: string[]; languageModels: { id: string; name: string }[] }> {
  const [models, lm] = await Promise.all([detectLocalModels(), availableLmModels()]);
  return { models, languageModels: lm.slice(0, 50).map((m) => ({ id: m.id, name: `${m.name} (${m.vendor})` })) };
}

/** "Peon: Select Model": every choice in one list; the pick is written to user settings. */
export async function selectModel(secrets: vscode.SecretStorage): Promise<void> {
  const { models, languageModels } = await setupChoices();
  const items: (vscode.QuickPickItem & { choice?: SetupChoice })[] = [
    ...(languageModels.length > 0 ? [{ label: "VS Code's language models", kind: vscode.QuickPickItemKind.Separator }] : []),
    ...languageModels.map((m) => ({ label: m.name, description: m.id, choice: { choice: 'vscode-lm' as const, model: m.id } })),
    ...(models.length > 0 ? [{ label: 'Ollama on this machine', kind: vscode.QuickPickItemKind.Separator }] : []),
    ...models.map((m) => ({ label: m, choice: { choice: 'local' as const, model: m } })),
    { label: 'With an API key', kind: vscode.QuickPickItemKind.Separator },
    ...PROVIDERS.map((p) => ({ label: p.label, choice: { choice: p.provider } })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Peon: Select Model', placeHolder: 'Which model should Peon use?' });
  if (picked?.choice) await applySetup(picked.choice, secrets);
}

export async function applySetup(choice: SetupChoice, secrets: vscode.SecretStorage): Promise<void> {
  const config = vscode.workspace.getConfiguration('peon');
  // The provider last: it is what makes Peon count as configured, so by then the rest is in place.
  const save = async (provider: string, model: string, baseUrl?: string): Promise<void> => {
    await config.update('model.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model.id', model, vscode.ConfigurationTarget.Global);
    await config.update('model.provider', provider, vscode.ConfigurationTarget.Global);
  };
  if (choice.choice === 'local') return save('openai', choice.model, OLLAMA_URL);
  if (choice.choice === 'vscode-lm') return save('vscode-lm', choice.model);
  const defaults = PROVIDERS.find((p) => p.provider === choice.choice)!;
  const model = await vscode.window.showInputBox({ title: `${defaults.label}: which model?`, value: defaults.model, ignoreFocusOut: true });
  if (!model?.trim()) return;
  if (!(await setApiKey(secrets, choice.choice))) return;
  await save(choice.choice, model.trim());
}
