import * as vscode from 'vscode';
import { askContextWindow, findLocalServers, isLoopbackUrl, localPorts, type LocalServer } from '../core/model/localServers';
import type { ModelClient } from '../core/model/modelClient';
import { runtime } from './runtime';
import { anthropicSetup, apiKeyAnswer, modelChoices, openaiSetup, type SetupChoice, type SetupResult, type SetupUi } from './setupFlow';
import { availableLmModels, vscodeLmClient } from './vscodeLmClient';
import { readSettings } from './settings';
import type { SettingValues } from '../core/settings';

export const SECRET_KEYS = { anthropic: 'peon.apiKey.anthropic', openai: 'peon.apiKey.openai' } as const;
const PROVIDER_LABELS = { anthropic: 'Anthropic', openai: 'OpenAI (or an OpenAI-compatible server)' } as const;

/** Why no model can be used yet; `key`: what is missing is an API key (Set API Key is the way on). */
export interface ModelProblem {
  readonly problem: string;
  readonly key?: boolean;
}

/** The model the user configured (user-scope settings, key from SecretStorage), or why there is none. */
export async function modelFromSettings(values: SettingValues, secrets: vscode.SecretStorage): Promise<ModelClient | ModelProblem> {
  const provider = values['peon.model.provider'];
  const model = values['peon.model.id'];
  const baseUrl = values['peon.model.baseUrl'];
  if (!provider) return { problem: 'No model chosen yet.' };
  if (provider === 'vscode-lm') {
    const [chosen] = await availableLmModels(model ? { id: model } : {});
    if (chosen) return vscodeLmClient(chosen);
    return { problem: model ? `VS Code offers no language model "${model}" now; run "Peon: Select Model" to pick one.` : 'VS Code offers no language model: install one (GitHub Copilot Chat, for example) or choose Anthropic or OpenAI with "Peon: Select Model".' };
  }
  if (!model) return { problem: `Set peon.model.id to the ${provider} model to use.` };
  const key = await secrets.get(SECRET_KEYS[provider]);
  if (provider === 'anthropic') {
    if (!key) return { problem: 'No Anthropic API key yet.', key: true };
    return runtime().modelClient('anthropic', { apiKey: key, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  // A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp) needs no key.
  if (!key && !baseUrl) return { problem: 'No OpenAI API key yet (a local server needs its base URL instead).', key: true };
  // A server on this machine is asked its context window (once); the table's guess is for the rest.
  const contextWindow = baseUrl && isLoopbackUrl(baseUrl) ? await askContextWindow(baseUrl, model) : undefined;
  return runtime().modelClient('openai', { apiKey: key ?? 'none', model, ...(baseUrl ? { baseUrl } : {}), ...(contextWindow ? { contextWindow } : {}) });
}

/** Why no model can answer now, or undefined when one can. */
export async function modelProblem(secrets: vscode.SecretStorage): Promise<ModelProblem | undefined> {
  const client = await modelFromSettings(readSettings().values, secrets);
  return 'problem' in client ? client : undefined;
}

/** VS Code's quick picks and input boxes for the setup steps (setupFlow.ts). */
const ui: SetupUi = {
  async pick(title, placeHolder, items) {
    type Item = vscode.QuickPickItem & { item?: (typeof items)[number] };
    const shown: Item[] = [];
    let group: string | undefined;
    for (const item of items) {
      if (item.group !== undefined && item.group !== group) shown.push({ label: item.group, kind: vscode.QuickPickItemKind.Separator });
      group = item.group;
      shown.push({ label: item.label, ...(item.description ? { description: item.description } : {}), ...(item.detail ? { detail: item.detail } : {}), item });
    }
    return (await vscode.window.showQuickPick(shown, { title, placeHolder, ignoreFocusOut: true }))?.item;
  },
  input: (options) =>
    Promise.resolve(
      vscode.window.showInputBox({
        title: options.title,
        prompt: options.prompt,
        ignoreFocusOut: true,
        ...(options.value !== undefined ? { value: options.value } : {}),
        ...(options.placeHolder ? { placeHolder: options.placeHolder } : {}),
        ...(options.password ? { password: true } : {}),
        ...(options.validate ? { validateInput: options.validate } : {}),
      }),
    ),
};

const currentModel = () => {
  const values = readSettings().values;
  return { provider: values['peon.model.provider'], model: values['peon.model.id'], baseUrl: values['peon.model.baseUrl'] };
};

/**
 * Set API Key: for `given` (`current`: the configured provider's), else the provider
 * asked first; an empty answer removes a stored key only when confirmed. Returns false if nothing changed.
 */
export async function setApiKey(secrets: vscode.SecretStorage, given?: 'anthropic' | 'openai' | 'current'): Promise<boolean> {
  const configured = given === 'current' ? readSettings().values['peon.model.provider'] : given;
  const provider =
    (configured === 'anthropic' || configured === 'openai' ? configured : undefined) ??
    (await ui.pick('Peon: Set API Key', 'Which provider is the key for?', (['anthropic', 'openai'] as const).map((p) => ({ label: PROVIDER_LABELS[p], provider: p }))))?.provider;
  if (!provider) return false;
  const answer = await apiKeyAnswer(ui, PROVIDER_LABELS[provider], (await secrets.get(SECRET_KEYS[provider])) !== undefined);
  if (!answer) return false;
  if ('store' in answer) await secrets.store(SECRET_KEYS[provider], answer.store);
  else await secrets.delete(SECRET_KEYS[provider]);
  return true;
}

/** The model servers found on this machine when the choices were last offered: a local choice is taken only from them. */
let found: LocalServer[] = [];

/** What the first run and "Peon: Select Model" offer besides Anthropic and OpenAI: the local servers' models and VS Code's. */
export async function setupChoices(): Promise<{ servers: LocalServer[]; languageModels: { id: string; name: string }[] }> {
  const [servers, lm] = await Promise.all([findLocalServers(localPorts(process.env)), availableLmModels()]);
  found = servers;
  return { servers, languageModels: lm.slice(0, 50).map((m) => ({ id: m.id, name: `${m.name} (${m.vendor})` })) };
}

/** "Peon: Select Model" (and the panel's model chip): every choice in one list; the pick is written to user settings. */
export async function selectModel(secrets: vscode.SecretStorage): Promise<void> {
  const { servers, languageModels } = await setupChoices();
  const picked = await ui.pick('Peon: Select Model', 'Which model should Peon use?', modelChoices(servers, languageModels, currentModel()));
  if (picked) await applySetup(picked.choice, secrets);
}

/** A choice applied: a local or VS Code model at once, a provider after its steps. */
export async function applySetup(choice: SetupChoice, secrets: vscode.SecretStorage): Promise<void> {
  if (choice.choice === 'vscode-lm') return save({ provider: 'vscode-lm', model: choice.model }, secrets);
  if (choice.choice === 'local') {
    // The webview names the server; only one found here (now, or when the choices were offered) is used.
    const offered = (servers: LocalServer[]) => servers.some((s) => s.baseUrl === choice.baseUrl && s.models.includes(choice.model));
    if (offered(found) || offered((await setupChoices()).servers)) await save({ provider: 'openai', model: choice.model, baseUrl: choice.baseUrl }, secrets);
    return;
  }
  const stored = (await secrets.get(SECRET_KEYS[choice.choice])) !== undefined;
  const result = choice.choice === 'anthropic' ? await anthropicSetup(ui, currentModel(), stored) : await openaiSetup(ui, (await setupChoices()).servers, currentModel(), stored);
  if (result) await save(result, secrets);
}

/**
 * Writes the choice to user settings (in a remote window VS Code puts these
 * machine-scoped keys in the remote's settings, where they apply); the key first and
 * the provider last: it is what makes Peon count as configured, so by then the rest is in place.
 */
async function save(result: SetupResult | { provider: 'vscode-lm'; model: string; baseUrl?: undefined; key?: undefined }, secrets: vscode.SecretStorage): Promise<void> {
  if (result.key) await secrets.store(SECRET_KEYS[result.provider], result.key);
  const config = vscode.workspace.getConfiguration('peon');
  await config.update('model.baseUrl', result.baseUrl, vscode.ConfigurationTarget.Global);
  await config.update('model.id', result.model, vscode.ConfigurationTarget.Global);
  await config.update('model.provider', result.provider, vscode.ConfigurationTarget.Global);
}
