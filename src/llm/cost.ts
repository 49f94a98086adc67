// The USD cost of a reply's usage at its model's per-million prices. Kept apart from the model list
// (models.ts) because every provider needs it and the model list reads the provider table.
import type { Usage, UsageCost } from '../core/messages';
import type { ModelInfo } from './types';

/** USD cost of a usage record at the model's per-million prices. */
export function costFor(usage: Pick<Usage, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>, model: Pick<ModelInfo, 'pricing'>): UsageCost {
  const p = model.pricing;
  const input = (usage.input * p.input) / 1e6;
  const output = (usage.output * p.output) / 1e6;
  const cacheRead = (usage.cacheRead * p.cacheRead) / 1e6;
  const cacheWrite = (usage.cacheWrite * p.cacheWrite) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
