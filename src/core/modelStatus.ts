import type { ModelStatus } from '../shared/messages';
import type { SettingValues } from './settings';

/** What the panel shows about the model, from the resolved settings. */
export function modelStatusOf(values: SettingValues): ModelStatus {
  const provider = values['peon.model.provider'];
  if (!provider) return { state: 'unconfigured' };
  const model = values['peon.model.id'];
  return model ? { state: 'configured', provider, model } : { state: 'configured', provider };
}

/**
 * What sending a message does while Peon has no agent loop: say so plainly.
 * Nothing is sent anywhere and no reply is invented.
 */
export function noModelNotice(status: ModelStatus): string {
  if (status.state === 'unconfigured') {
    return 'No model configured yet, so Peon cannot answer. Nothing was sent anywhere.';
  }
  const name = status.model ? `${status.provider} / ${status.model}` : status.provider;
  return `A model is configured (${name}), but this build of Peon cannot talk to models yet. Nothing was sent anywhere.`;
}
