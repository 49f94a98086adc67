// Key resolution helpers. The extension resolves keys from SecretStorage; environment variables are a
// development fallback. Keys are never logged and never placed in events or errors (see errors.ts).
import type { KeyResolver } from './types';

export const ENV_KEY_NAMES: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** Keys from environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, or ARBOR_<PROVIDER>_API_KEY). */
export function envKeyResolver(env: Record<string, string | undefined> = process.env): KeyResolver {
  return {
    async getKey(provider: string) {
      const name = ENV_KEY_NAMES[provider] ?? `ARBOR_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`;
      const value = env[name]?.trim();
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
