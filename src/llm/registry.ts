// Chooses the provider implementation for a model by its wire API, from the table in providers/index.ts.
import type { KeyResolver, ModelInfo, Provider } from './types';
import type { ProviderOptions } from './provider-options';
import { providerForApi } from './providers';

export type { ProviderOptions } from './provider-options';

export function createProvider(model: ModelInfo, keys: KeyResolver, options?: ProviderOptions): Provider {
  const descriptor = providerForApi(model.api);
  if (!descriptor) throw new Error(`Unknown model api: ${String(model.api)}`);
  return descriptor.create(model, keys, options);
}
