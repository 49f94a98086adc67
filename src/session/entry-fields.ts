// Readable values of entry fields whose shape differs between pi and omp (model_change, thinking level),
// for the CLI, the tree and exports. The context builder reads the same fields (context.ts).
import type { ModelChangeEntry, ThinkingLevelChangeEntry } from './entries';

/** "provider/modelId" for pi's shape, omp's `model` as written (with its role when not the default). */
export function modelChangeText(entry: ModelChangeEntry): string {
  if (typeof entry.provider === 'string' && typeof entry.modelId === 'string') return `${entry.provider}/${entry.modelId}`;
  const model = typeof entry.model === 'string' ? entry.model : '?';
  return entry.role && entry.role !== 'default' ? `${model} (${entry.role})` : model;
}

/** omp writes null (or nothing) for "off". */
export function thinkingLevelText(entry: ThinkingLevelChangeEntry): string {
  return entry.thinkingLevel ?? 'off';
}

/** A summary an extension wrote (pi: fromHook, omp: fromExtension): its details are not trusted. */
export function isExtensionSummary(entry: { fromHook?: unknown; fromExtension?: unknown }): boolean {
  return entry.fromHook === true || entry.fromExtension === true;
}
