// Which Claude models take Anthropic's on-demand compaction (beta `compact-2026-09-04`): per the docs,
// Opus and Sonnet from 4.6 on and the 5.x families; a model entry's `nativeCompaction` overrides this.
// The compacted block is replayed only to such a model, with the beta header (src/llm/anthropic-messages.ts).
import type { ModelInfo } from './types';

export const ANTHROPIC_COMPACTION_BETA = 'compact-2026-09-04';

const COMPACTION_MODELS = /^claude-(?:(?:opus|sonnet)-4-(?:[6-9]|\d{2})|[a-z]+-[5-9])(?:\b|-|$)/;

export function supportsAnthropicCompaction(model: Pick<ModelInfo, 'provider' | 'api' | 'id' | 'nativeCompaction'> | undefined): boolean {
  if (!model || model.provider !== 'anthropic' || model.api !== 'anthropic-messages') return false;
  return model.nativeCompaction ?? COMPACTION_MODELS.test(model.id);
}
