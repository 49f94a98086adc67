// The one table of providers (each described in its own file, see ./descriptor.ts). Order matters only
// for the Set API Key picker and the built-in model list; automatic choice uses `autoPickRank`.
import type { ModelInfo, ProviderApi } from '../types';
import type { ProviderDescriptor } from './descriptor';
import { openai } from './openai';
import { anthropic } from './anthropic';
import { local } from './local';
import { demo } from './demo';
import { vscodeLm } from './vscode-lm';

export type { ProviderDescriptor, KeyNeed } from './descriptor';

export const PROVIDERS = [openai, anthropic, local, vscodeLm, demo] as const satisfies readonly ProviderDescriptor[];

/** The id of a provider in the table (../provider-factories.ts has one implementation per id). */
export type ProviderId = (typeof PROVIDERS)[number]['id'];

export function providerById(id: string): ProviderDescriptor<ProviderId> | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The descriptor that implements a wire API (user-defined providers reuse these implementations). */
export function providerForApi(api: ProviderApi): ProviderDescriptor<ProviderId> | undefined {
  return PROVIDERS.find((p) => p.api === api) ?? PROVIDERS.find((p) => p.alsoServes?.includes(api));
}

/** Every wire API a model may name (the `api` of `arbor.models` entries). */
export function providerApis(): ProviderApi[] {
  return [...new Set(PROVIDERS.flatMap((p) => [p.api, ...(p.alsoServes ?? [])]))];
}

/** Providers whose key the user may store (Set API Key / Clear API Key). */
export function keyedProviders(): ProviderDescriptor[] {
  return PROVIDERS.filter((p) => p.key !== 'none');
}

/** Providers with an `arbor.providers.<id>.baseUrl` setting. */
export function baseUrlProviders(): ProviderDescriptor[] {
  return PROVIDERS.filter((p) => p.baseUrlSetting);
}

/** The built-in models of every provider. */
export function builtinModels(): ModelInfo[] {
  return PROVIDERS.flatMap((p) => p.models.map((m) => ({ ...m, pricing: { ...m.pricing } })));
}

/** Providers tried by automatic model choice, best first. */
export function autoPickOrder(): ProviderDescriptor[] {
  return PROVIDERS.filter((p) => p.autoPickRank !== undefined).sort((a, b) => a.autoPickRank! - b.autoPickRank!);
}

/** The SDK chunks scripts/build.mjs builds under dist/vendor/ (module → chunk name). */
export function sdkChunks(): Record<string, string> {
  return Object.fromEntries(PROVIDERS.flatMap((p) => (p.sdk ? [[p.sdk.module, p.sdk.chunk]] : [])));
}

/** Where a model's requests go when neither it nor the options name a base URL. */
export function defaultBaseUrl(model: Pick<ModelInfo, 'provider' | 'api'>): string | undefined {
  return providerById(model.provider)?.defaultBaseUrl ?? providerForApi(model.api)?.defaultBaseUrl;
}
