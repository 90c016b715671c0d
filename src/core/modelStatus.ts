import type { ModelStatus } from '../shared/messages';
import type { SettingValues } from './settings';

/** What the panel shows about the model, from the resolved settings. */
export function modelStatusOf(values: SettingValues): ModelStatus {
  const provider = values['peon.model.provider'];
  if (!provider) return { state: 'unconfigured' };
  const model = values['peon.model.id'];
  return model ? { state: 'configured', provider, model } : { state: 'configured', provider };
}
