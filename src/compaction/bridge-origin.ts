// Where a bridge came from (docs/architecture.md, "Background compaction"): a compaction committed with a
// bridge names the first entry it holds shortened in `details.bridge`, and the next compaction's span starts
// there (./prepare.ts), so the originals are summarized in full from the session. Only Arbor-written details
// are trusted. Pure; no imports from the compaction engine, so the planner can read it.
import type { SessionEntry } from '../session/entries';
import { isExtensionSummary } from '../session/entry-fields';

/** `details.bridge` of a compaction: the entries it holds shortened, from `fromEntryId` to its first kept entry. */
export interface BridgeDetails {
  fromEntryId: string;
  /** messages shortened */
  entries: number;
  /** estimated tokens of those messages as written */
  tokens: number;
  /** estimated tokens of the section that stands for them */
  sectionTokens: number;
}

/**
 * Where the next compaction's span starts: the previous compaction's bridge origin when it lies on the path
 * before `keptStart` (its originals are then summarized in full), else `keptStart` (pi's rule).
 */
export function bridgeStartOf(path: readonly SessionEntry[], previous: SessionEntry & { details?: unknown }, keptStart: number): number {
  const from = bridgeDetailsOf(previous)?.fromEntryId;
  if (from === undefined) return keptStart;
  for (let i = 0; i < keptStart; i++) if (path[i]!.id === from) return i;
  return keptStart;
}

/** A compaction's bridge (Arbor-written details only), or undefined. */
export function bridgeDetailsOf(entry: { details?: unknown; fromHook?: unknown; fromExtension?: unknown }): BridgeDetails | undefined {
  if (isExtensionSummary(entry) || typeof entry.details !== 'object' || entry.details === null) return undefined;
  const bridge = (entry.details as Record<string, unknown>).bridge as Partial<BridgeDetails> | undefined;
  return bridge && typeof bridge.fromEntryId === 'string' ? (bridge as BridgeDetails) : undefined;
}
