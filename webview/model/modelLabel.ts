// How the panel names the model in use: its name, and where it runs.
import type { ModelStatus } from '../../src/shared/messages';

export function modelLabel(model: ModelStatus | undefined): { name: string; where: string } {
  if (!model || model.state === 'unconfigured') return { name: 'No model yet', where: '' };
  const where =
    model.provider === 'anthropic'
      ? model.endpoint && model.endpoint !== 'api.anthropic.com' ? `Anthropic at ${model.endpoint}` : 'Anthropic'
      : model.provider === 'openai'
        ? !model.endpoint || model.endpoint === 'api.openai.com' ? 'OpenAI' : model.endpoint
        : model.provider === 'vscode-lm'
          ? 'VS Code'
          : model.provider;
  return { name: model.model ?? (model.provider === 'vscode-lm' ? "VS Code's first model" : 'no model name set'), where };
}
