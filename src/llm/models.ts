// Built-in model registry, user models/overrides from settings, lookup helpers and cost.
// Prices are USD per million tokens as published by the providers (re-check when adding models);
// Anthropic cache writes are 1.25x input (5-minute TTL) and cache reads 0.1x input.
import { z } from 'zod';
import type { Usage, UsageCost } from '../core/messages';
import type { ModelInfo, ProviderApi } from './types';

export const DEMO_MODEL: ModelInfo = {
  provider: 'demo',
  id: 'arbor-demo',
  name: 'Arbor Demo (offline)',
  api: 'demo',
  contextWindow: 32_768,
  maxOutputTokens: 4096,
  reasoning: false,
  pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

export const BUILTIN_MODELS: readonly ModelInfo[] = [
  {
    provider: 'openai', id: 'gpt-5', name: 'GPT-5', api: 'openai-completions',
    contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true,
    pricing: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  },
  {
    provider: 'openai', id: 'gpt-5-mini', name: 'GPT-5 mini', api: 'openai-completions',
    contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true,
    pricing: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  },
  {
    provider: 'openai', id: 'gpt-4.1', name: 'GPT-4.1', api: 'openai-completions',
    contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false,
    pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  },
  {
    provider: 'anthropic', id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', api: 'anthropic-messages',
    contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true,
    pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  },
  {
    provider: 'anthropic', id: 'claude-opus-4-5', name: 'Claude Opus 4.5', api: 'anthropic-messages',
    contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true,
    pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  },
  {
    provider: 'anthropic', id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', api: 'anthropic-messages',
    contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true,
    pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  },
  DEMO_MODEL,
];

const API_VALUES = ['openai-completions', 'anthropic-messages', 'openai-compatible', 'demo'] as const satisfies readonly ProviderApi[];

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
  api: z.enum(API_VALUES).optional(),
  baseUrl: z.string().url().optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoning: z.boolean().optional(),
  pricing: pricingSchema.partial().optional(),
  promoteTo: z.string().min(1).optional(),
});

export type UserModelSetting = z.input<typeof userModelSchema>;

export interface ModelSettingsResult {
  models: ModelInfo[];
  /** human-readable problems, one per skipped entry (shown to the user, never thrown) */
  problems: string[];
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
    pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

function apiForProvider(provider: string): ProviderApi | undefined {
  if (provider === 'openai') return 'openai-completions';
  if (provider === 'anthropic') return 'anthropic-messages';
  return undefined;
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
    const api = entry.api ?? base?.api ?? apiForProvider(entry.provider) ?? (entry.baseUrl ? 'openai-compatible' : undefined);
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

/** USD cost of a usage record at the model's per-million prices. */
export function costFor(usage: Pick<Usage, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>, model: Pick<ModelInfo, 'pricing'>): UsageCost {
  const p = model.pricing;
  const input = (usage.input * p.input) / 1e6;
  const output = (usage.output * p.output) / 1e6;
  const cacheRead = (usage.cacheRead * p.cacheRead) / 1e6;
  const cacheWrite = (usage.cacheWrite * p.cacheWrite) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
