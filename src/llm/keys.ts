// Key resolution helpers. The extension resolves keys from SecretStorage; environment variables are a
// development fallback. Keys are never logged and never placed in events or errors (see errors.ts).
import type { KeyResolver } from './types';
import { providerById } from './providers';

/** The variables tried for a provider's key: its descriptor's, else ARBOR_<PROVIDER>_API_KEY. */
export function envKeyNames(provider: string): readonly string[] {
  const names = providerById(provider)?.keyEnvNames;
  return names?.length ? names : [`ARBOR_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`];
}

/** Keys from environment variables (each provider's own, e.g. OPENAI_API_KEY, or ARBOR_<PROVIDER>_API_KEY). */
export function envKeyResolver(env: Record<string, string | undefined> = process.env): KeyResolver {
  return {
    async getKey(provider: string) {
      const value = envKeyNames(provider).map((name) => env[name]?.trim()).find(Boolean);
      return value ? value : undefined;
    },
  };
}

/** First resolver that has a key wins (e.g. SecretStorage, then env in development). */
export function chainKeyResolvers(...resolvers: KeyResolver[]): KeyResolver {
  return {
    async getKey(provider: string) {
      for (const resolver of resolvers) {
        const key = await resolver.getKey(provider);
        if (key) return key;
      }
      return undefined;
    },
  };
}

/** A fixed map of keys (tests, CLI). */
export function staticKeyResolver(keys: Record<string, string | undefined>): KeyResolver {
  return { getKey: async (provider) => keys[provider] };
}
