// Context promotion (omp's `contextPromotion`, docs/pi-compatibility.md "When compaction runs"): before compacting on overflow, on an incomplete
// (`length`) reply or at the threshold, switch to a configured model with a larger context window when
// the current context fits it, and retry without compacting. Nothing is summarized, so nothing is lost.
// The host passes the configured model(s) (`arbor.compaction.promotionModel`); this file only decides.
import { compactionThreshold, type CompactionSettings } from '../compaction';
import { findModel, sameModel } from '../llm/models';
import type { ModelInfo } from '../llm/types';

export type PromotionTrigger = 'overflow' | 'length' | 'threshold';

export interface PromotionQuery {
  current: ModelInfo;
  /** the configured promotion model(s), in order of preference */
  configured: ModelInfo | readonly ModelInfo[] | undefined;
  /** context tokens now (for an overflow, at least the current window) */
  contextTokens: number;
  settings: CompactionSettings;
  /** whether a model can be used now (key present, or a local model that needs none) */
  usable: (model: ModelInfo) => Promise<boolean>;
}

/**
 * The promotion targets the user configured for `current`: the model's own `promoteTo` (`arbor.models`)
 * first, then `arbor.compaction.promotionModel`; references that name no known model are ignored.
 */
export function configuredPromotions(current: ModelInfo, settings: CompactionSettings, available: readonly ModelInfo[]): ModelInfo[] {
  const refs = [current.promoteTo, settings.promotionModel].filter((ref): ref is string => Boolean(ref?.trim()));
  const found = refs.map((ref) => findModel(available, ref.trim())).filter((m): m is ModelInfo => m !== undefined);
  return found.filter((model, i) => found.findIndex((other) => sameModel(other, model)) === i);
}

/**
 * The first configured model that is not the current one, has a larger window, is usable, and holds the
 * context below its own compaction threshold (promoting only to compact at once would cost a model
 * switch for nothing). Undefined when none qualifies.
 */
export async function choosePromotion(query: PromotionQuery): Promise<ModelInfo | undefined> {
  const configured = query.configured === undefined ? [] : Array.isArray(query.configured) ? query.configured : [query.configured as ModelInfo];
  for (const model of configured) {
    if (sameModel(model, query.current)) continue;
    if (!(model.contextWindow > query.current.contextWindow)) continue;
    if (query.contextTokens > compactionThreshold(model.contextWindow, query.settings)) continue;
    if (!(await query.usable(model))) continue;
    return model;
  }
  return undefined;
}

export function promotionNotice(model: ModelInfo): string {
  return `Switched to ${model.name} (larger context) instead of compacting.`;
}
