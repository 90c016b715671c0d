import * as vscode from 'vscode';
import { anthropicClient } from '../core/model/anthropicClient';
import type { ModelClient } from '../core/model/modelClient';
import { openaiClient } from '../core/model/openaiClient';
import type { SettingValues } from '../core/settings';

export const SECRET_KEYS = { anthropic: 'peon.apiKey.anthropic', openai: 'peon.apiKey.openai' } as const;

/** The model the user configured (user-scope settings, key from SecretStorage), or why there is none. */
export async function modelFromSettings(values: SettingValues, secrets: vscode.SecretStorage): Promise<ModelClient | { problem: string }> {
  const provider = values['peon.model.provider'];
  const model = values['peon.model.id'];
  const baseUrl = values['peon.model.baseUrl'];
  if (!provider) return { problem: 'No model configured yet. Set peon.model.provider and peon.model.id in your user settings.' };
  if (provider === 'vscode-lm') return { problem: "VS Code's language models are not supported by this build yet; choose anthropic or openai." };
  if (!model) return { problem: `Set peon.model.id to the ${provider} model to use.` };
  const key = await secrets.get(SECRET_KEYS[provider]);
  if (provider === 'anthropic') {
    if (!key) return { problem: 'No Anthropic API key yet: run "Peon: Set API Key".' };
    return anthropicClient({ apiKey: key, model, ...(baseUrl ? { baseUrl } : {}) });
  }
  // A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp) needs no key.
  if (!key && !baseUrl) return { problem: 'No OpenAI API key yet: run "Peon: Set API Key" (or set peon.model.baseUrl for a local server).' };
  return openaiClient({ apiKey: key ?? 'none', model, ...(baseUrl ? { baseUrl } : {}) });
}

export async function setApiKey(secrets: vscode.SecretStorage): Promise<void> {
  const provider = await vscode.window.showQuickPick(
    [
      { label: 'Anthropic', provider: 'anthropic' as const },
      { label: 'OpenAI (or an OpenAI-compatible server)', provider: 'openai' as const },
    ],
    { title: 'Peon: Set API Key', placeHolder: 'Which provider is the key for?' },
  );
  if (!provider) return;
  const key = await vscode.window.showInputBox({ title: `${provider.label} API key`, password: true, ignoreFocusOut: true, prompt: 'Kept in VS Code SecretStorage, never in settings files.' });
  if (key === undefined) return;
  if (key.trim() === '') await secrets.delete(SECRET_KEYS[provider.provider]);
  else await secrets.store(SECRET_KEYS[provider.provider], key.trim());
}
