// Model list: the built-in models of every provider (providers/<id>.ts), user models/overrides from
// settings, lookup helpers and cost. Prices are USD per million tokens as published by the providers.
import { z } from 'zod';
import type { ModelInfo, ProviderApi } from './types';
import { builtinModels, providerApis, providerById } from './providers';

/** The offline demo model (described with its provider in providers/demo.ts). */
export { DEMO_MODEL } from './providers/demo';

/** Every provider's built-in models, from the table. */
export const BUILTIN_MODELS: readonly ModelInfo[] = builtinModels();

const pricingSchema = z.object({
  input: z.number().nonnegative().default(0),
  output: z.number().nonnegative().default(0),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});

/** One user entry: a full model, or an override of a built-in one (same provider/id, partial fields). */
const userModelSchema = z.object({
  provider: z.string().min(1),
  id: z.string().min(1),
  name: z.string().min(1).optional(),
  api: z.string().refine((api) => (providerApis() as string[]).includes(api), { message: `expected one of ${providerApis().join(', ')}` }).optional(),
  baseUrl: z.string().url().optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoning: z.boolean().optional(),
  images: z.boolean().optional(),
  pricing: pricingSchema.partial().optional(),
  promoteTo: z.string().min(1).optional(),
  nativeCompaction: z.boolean().optional(),
});

export type UserModelSetting = z.input<typeof userModelSchema>;

export interface ModelSettingsResult {
  models: ModelInfo[];
  /** human-readable problems, one per skipped entry (shown to the user, never thrown) */
  problems: string[];
}

/** The same model: one provider, one id (base URLs and settings aside). */
export function sameModel(a: Pick<ModelInfo, 'provider' | 'id'>, b: Pick<ModelInfo, 'provider' | 'id'>): boolean {
  return a.provider === b.provider && a.id === b.id;
}

export function modelKey(model: Pick<ModelInfo, 'provider' | 'id'>): string {
  return `${model.provider}/${model.id}`;
}

/** Defaults for a model the user adds without giving every number. */
function defaultsFor(api: ProviderApi): Omit<ModelInfo, 'provider' | 'id' | 'name' | 'api'> {
  return {
    contextWindow: api === 'anthropic-messages' ? 200_000 : 128_000,
    maxOutputTokens: api === 'openai-compatible' ? 4096 : 16_384,
    reasoning: false,
    // a model on a local server is text-only unless its entry says `images: true`
    images: api !== 'openai-compatible',
    pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

/** A known provider's models use its wire API unless an entry says otherwise (not a local server's). */
function apiForProvider(provider: string): ProviderApi | undefined {
  const descriptor = providerById(provider);
  return descriptor?.key === 'required' ? descriptor.api : undefined;
}

/**
 * Builds the model list from the built-ins plus a plain settings value (e.g. `arbor.models`):
 * an array of entries; entries matching a built-in `provider/id` override its fields, others are added.
 * Invalid entries are reported in `problems` and skipped; nothing throws.
 */
export function resolveModels(settings: unknown, builtins: readonly ModelInfo[] = BUILTIN_MODELS): ModelSettingsResult {
  const byKey = new Map<string, ModelInfo>(builtins.map((m) => [modelKey(m), { ...m, pricing: { ...m.pricing } }]));
  const problems: string[] = [];
  if (settings === undefined || settings === null) return { models: [...byKey.values()], problems };
  if (!Array.isArray(settings)) {
    return { models: [...byKey.values()], problems: ['models setting: expected an array of model entries'] };
  }
  settings.forEach((raw, index) => {
    const parsed = userModelSchema.safeParse(raw);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ');
      problems.push(`models[${index}] skipped: ${detail}`);
      return;
    }
    const entry = parsed.data;
    const key = modelKey(entry);
    const base = byKey.get(key);
    const api = (entry.api as ProviderApi | undefined) ?? base?.api ?? apiForProvider(entry.provider) ?? (entry.baseUrl ? 'openai-compatible' : undefined);
    if (!api) {
      problems.push(`models[${index}] skipped: ${key} needs "api" or "baseUrl"`);
      return;
    }
    const defaults = base ?? { ...defaultsFor(api), provider: entry.provider, id: entry.id, name: entry.id, api };
    byKey.set(key, {
      ...defaults,
      ...Object.fromEntries(Object.entries(entry).filter(([k, v]) => v !== undefined && k !== 'pricing')),
      api,
      pricing: { ...defaults.pricing, ...(entry.pricing ?? {}) },
    } as ModelInfo);
  });
  return { models: [...byKey.values()], problems };
}

/** Finds a model by "provider/id" (or a bare id when unambiguous). */
export function findModel(models: readonly ModelInfo[], ref: string | undefined): ModelInfo | undefined {
  if (!ref) return undefined;
  const exact = models.find((m) => modelKey(m) === ref);
  if (exact) return exact;
  const byId = models.filter((m) => m.id === ref);
  return byId.length === 1 ? byId[0] : undefined;
}

export { costFor } from './cost';
