// Readable values of entry fields whose shape differs between pi and omp (model_change, thinking level),
// for the CLI, the tree and exports. The context builder reads the same fields (context.ts).
import type { Usage } from '../core/messages';
import type { ModelChangeEntry, SessionEntry, ThinkingLevelChangeEntry } from './entries';

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

/**
 * The usage an entry records, for the session cost: an assistant reply's, and (pi 1.5) a `usage` entry's or
 * the summarizer call's on a compaction or branch summary.
 */
export function entryUsage(entry: SessionEntry): Usage | undefined {
  const record = entry as { type: string; usage?: unknown; message?: { role?: unknown; usage?: unknown } };
  const usage = entry.type === 'message' ? (record.message?.role === 'assistant' ? record.message.usage : undefined) : USAGE_CARRIERS.has(entry.type) ? record.usage : undefined;
  return typeof usage === 'object' && usage !== null ? (usage as Usage) : undefined;
}

const USAGE_CARRIERS = new Set(['usage', 'compaction', 'branch_summary']);

/** The cost in dollars an entry records (0 when none, or not a finite number). */
export function entryCost(entry: SessionEntry): number {
  const total = entryUsage(entry)?.cost?.total;
  return typeof total === 'number' && Number.isFinite(total) ? total : 0;
}
