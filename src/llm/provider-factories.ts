// The implementation behind each provider of the table in ./providers: kept apart from the providers' data
// (ids, key variables, overflow wordings, models), which the implementations themselves read, so the data
// table imports no implementation and no import cycle runs through it. Typed by the table's ids: a provider
// added there without its line here does not compile.
import { AnthropicMessagesProvider } from './anthropic-messages';
import { getDemoProvider } from './demo';
import { OpenAICompletionsProvider } from './openai-completions';
import { OpenAIResponsesProvider } from './openai-responses';
import type { ProviderOptions } from './provider-options';
import type { ProviderId } from './providers';
import type { KeyResolver, ModelInfo, Provider } from './types';
import { VscodeLmProvider } from './vscode-lm/provider';

/** Builds the provider for a model whose `api` the provider's descriptor serves. */
export type ProviderFactory = (model: ModelInfo, keys: KeyResolver, options?: ProviderOptions) => Provider;

export const PROVIDER_FACTORIES: Record<ProviderId, ProviderFactory> = {
  openai: (model, keys, options) =>
    model.api === 'openai-completions' ? new OpenAICompletionsProvider(model, keys, options) : new OpenAIResponsesProvider(model, keys, options),
  anthropic: (model, keys, options) => new AnthropicMessagesProvider(model, keys, options),
  local: (model, keys, options) => new OpenAICompletionsProvider(model, keys, options),
  'vscode-lm': (model, _keys, options) => new VscodeLmProvider(model, options?.languageModels, options),
  demo: (_model, _keys, options) => getDemoProvider(options),
};
