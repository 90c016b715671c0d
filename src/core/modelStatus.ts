import type { ModelStatus } from '../shared/messages';
import type { SettingValues } from './settings';

/** What the panel shows about the model, from the resolved settings: provider, model, and the server's host when a base URL is set. */
export function modelStatusOf(values: SettingValues): ModelStatus {
  const provider = values['peon.model.provider'];
  if (!provider) return { state: 'unconfigured' };
  const model = values['peon.model.id'];
  const endpoint = provider === 'vscode-lm' ? undefined : hostOf(values['peon.model.baseUrl']);
  return { state: 'configured', provider, ...(model ? { model } : {}), ...(endpoint ? { endpoint } : {}) };
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host.slice(0, 200) || undefined;
  } catch {
    return undefined;
  }
}
