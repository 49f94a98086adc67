// Chooses the provider implementation for a model by its wire API.
import type { KeyResolver, ModelInfo, Provider } from './types';
import type { ProviderOptions } from './provider-options';
import { OpenAICompletionsProvider } from './openai-completions';
import { AnthropicMessagesProvider } from './anthropic-messages';
import { getDemoProvider } from './demo';

export type { ProviderOptions } from './provider-options';

export function createProvider(model: ModelInfo, keys: KeyResolver, options?: ProviderOptions): Provider {
  switch (model.api) {
    case 'openai-completions':
    case 'openai-compatible':
      return new OpenAICompletionsProvider(model, keys, options);
    case 'anthropic-messages':
      return new AnthropicMessagesProvider(model, keys, options);
    case 'demo':
      return getDemoProvider(options);
    default: {
      const api: never = model.api;
      throw new Error(`Unknown model api: ${String(api)}`);
    }
  }
}
