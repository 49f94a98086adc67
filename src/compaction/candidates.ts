// Which models may write a summary, in order: the configured summarizer model, the current model, then
// the available model with the largest context window (it can read the most history).
import type { ModelInfo } from '../llm/types';

function key(model: ModelInfo): string {
  return `${model.provider}/${model.id}`;
}

function findByRef(models: readonly ModelInfo[], ref: string): ModelInfo | undefined {
  const exact = models.find((m) => key(m) === ref);
  if (exact) return exact;
  const byId = models.filter((m) => m.id === ref);
  return byId.length === 1 ? byId[0] : undefined;
}

export function modelCandidates(summarizerModel: string, current: ModelInfo | undefined, available: readonly ModelInfo[]): ModelInfo[] {
  const ordered: ModelInfo[] = [];
  const add = (model: ModelInfo | undefined) => {
    if (model && !ordered.some((m) => key(m) === key(model))) ordered.push(model);
  };
  if (summarizerModel.trim()) add(findByRef(available, summarizerModel.trim()) ?? (current && findByRef([current], summarizerModel.trim())));
  add(current);
  add([...available].sort((a, b) => b.contextWindow - a.contextWindow)[0]);
  return ordered;
}
