// VS Code's Language Model API (GitHub Copilot and any other installed model vendor): no key, models
// discovered at run time by the editor (src/vscode/language-models.ts), shown as `vscode-lm/<vendor>/<id>`.
import type { ModelInfo } from '../types';
import type { HostModel } from '../vscode-lm/host';
import { FREE, type ProviderDescriptor } from './descriptor';

export const VSCODE_LM_PROVIDER = 'vscode-lm';

export const vscodeLm: ProviderDescriptor<typeof VSCODE_LM_PROVIDER> = {
  id: VSCODE_LM_PROVIDER,
  displayName: 'VS Code language models',
  api: 'vscode-lm',
  key: 'none',
  keyEnvNames: [],
  // Copilot's wordings (its models also fail with these through the editor)
  overflowWordings: [/model_max_prompt_tokens_exceeded/i, /prompt token count of \d+ exceeds the limit of \d+/i],
  baseUrlSetting: false,
  autoPickRank: 3,
  models: [],
};

/** The model entry for one model the editor offers (its price is the editor's business, not ours). */
export function hostModelInfo(model: HostModel): ModelInfo {
  const contextWindow = model.maxInputTokens > 0 ? model.maxInputTokens : 8192;
  return {
    provider: VSCODE_LM_PROVIDER,
    id: `${model.vendor}/${model.id}`,
    name: `${model.name} (${model.vendor})`,
    api: 'vscode-lm',
    contextWindow,
    maxOutputTokens: Math.min(16_384, Math.max(1024, Math.floor(contextWindow / 4))),
    reasoning: false,
    pricing: { ...FREE },
  };
}
