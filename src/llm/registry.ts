// Chooses the provider implementation for a model by its wire API: the descriptor serving that API
// (providers/index.ts), then that provider's factory (provider-factories.ts).
import type { KeyResolver, ModelInfo, Provider } from './types';
import type { ProviderOptions } from './provider-options';
import { PROVIDER_FACTORIES } from './provider-factories';
import { providerForApi } from './providers';

export type { ProviderOptions } from './provider-options';

export function createProvider(model: ModelInfo, keys: KeyResolver, options?: ProviderOptions): Provider {
  const descriptor = providerForApi(model.api);
  if (!descriptor) throw new Error(`Unknown model api: ${String(model.api)}`);
  return PROVIDER_FACTORIES[descriptor.id](model, keys, options);
}
