// A background summary committed with a bridge (docs/architecture.md, "Background compaction"): when what
// came while it was written would leave more than keepRecentTokens (+10%) verbatim, the commit cuts where a
// foreground compaction would keep keepRecentTokens now, the bridge counted in them, and the entries between
// the summary's own cut and that one go into the summary text shortened (./bridge.ts), at no model call. `details.bridge` names them, so the next
// compaction summarizes them in full from the session (./bridge-origin.ts). Pure.
import type { SessionEntry } from '../session/entries';
import { BRIDGE_SHARE, renderBridge, type BridgeEntry } from './bridge';
import { bridgeDetailsOf, type BridgeDetails } from './bridge-origin';
import { pinnedEntryIds } from './constraints';
import { addFileOpsFromDetails, addFileOpsFromMessage, computeFileLists, createFileOps, formatFileOperations } from './file-ops';
import type { CompactionPreparation } from './prepare';
import type { PreparedSummary } from './strategies/types';
import { estimateTokens, type TokenEstimator } from './tokens';
import { summarizerPart, withUserWords } from './user-ledger';
import { userWordsFromDetails } from './user-words';

/** A kept part up to this share above keepRecentTokens is as good as a foreground compaction's. */
export const TAIL_SLACK = 1.1;

/**
 * The prepared summary committed at the cut of `now` (the foreground plan at the current leaf), or
 * undefined when no bridge is needed (the cut is not later, or the prepared kept part is within the slack),
 * possible (`bridgeable`) or worth it (the section would not be smaller than what it stands for).
 */
export function bridgedSummary(
  prepared: PreparedSummary,
  now: CompactionPreparation,
  path: readonly SessionEntry[],
  estimator: TokenEstimator = estimateTokens,
  stepBudget = Math.floor(now.settings.keepRecentTokens * BRIDGE_SHARE),
): PreparedSummary | undefined {
  if (!bridgeable(prepared)) return undefined;
  const from = prepared.plan.preparation.firstKeptEntryId;
  const entries = bridgeEntries(now, path, from);
  if (!entries) return undefined;
  const bridgedTokens = entries.reduce((sum, e) => sum + estimator(e.message), 0);
  const keptTokens = now.keptMessages.reduce((sum, m) => sum + estimator(m), 0);
  if (bridgedTokens + keptTokens <= now.effectiveKeepRecentTokens * TAIL_SLACK) return undefined;
  const section = renderBridge(entries, stepBudget);
  // Mostly the user's own words (kept whole): nothing to gain over keeping the originals.
  if (section === '' || Math.ceil(section.length / 4) >= bridgedTokens) return undefined;
  const bridge: BridgeDetails = { fromEntryId: from, entries: entries.length, tokens: bridgedTokens, sectionTokens: Math.ceil(section.length / 4) };
  return { ...prepared, plan: { preparation: now }, result: bridgedResult(prepared, now, entries, section, bridge) };
}

/** Whether a summary can take a bridge: not a hook's (its format is its own), not one with a native payload (it replaces the text). */
export function bridgeable(prepared: PreparedSummary): boolean {
  return !prepared.fromHook && prepared.result.preserveData === undefined;
}

/**
 * The prepared summary as committed now: bridged at the foreground cut, and then, since the bridge is part
 * of the recent tail a foreground compaction keeps (keepRecentTokens), at the cut that keeps
 * keepRecentTokens less the bridge's section, so the context after is the foreground one. `planAt(keep)`:
 * the foreground plan at the current leaf (keep: keepRecentTokens in its place).
 */
export function bridgedCommit(prepared: PreparedSummary, planAt: (keep?: number) => CompactionPreparation | undefined, path: readonly SessionEntry[], estimator: TokenEstimator = estimateTokens): PreparedSummary {
  const now = planAt();
  const first = now && bridgedSummary(prepared, now, path, estimator);
  const section = first && bridgeDetailsOf({ details: first.result.details })?.sectionTokens;
  if (!first || !section) return first ?? prepared;
  const keep = now.settings.keepRecentTokens;
  const tighter = planAt(Math.max(1, keep - section));
  return (tighter && bridgedSummary(prepared, tighter, path, estimator, Math.floor(keep * BRIDGE_SHARE))) ?? first;
}

/** The messages of `now`'s summarized span from `from` on, or undefined when `from` is not before its cut. */
function bridgeEntries(now: CompactionPreparation, path: readonly SessionEntry[], from: string): BridgeEntry[] | undefined {
  const index = new Map(path.map((e, i) => [e.id, i]));
  const start = index.get(from);
  const cut = index.get(now.firstKeptEntryId);
  if (start === undefined || cut === undefined || cut <= start) return undefined;
  const pinned = pinnedEntryIds(path);
  const ids = [...now.summarizeEntryIds, ...now.turnPrefixEntryIds];
  const messages = [...now.messagesToSummarize, ...now.turnPrefixMessages];
  return ids.flatMap((id, i) => ((index.get(id) ?? -1) >= start ? [{ id, message: messages[i]!, pinned: pinned.has(id) }] : []));
}

/** The summarizer's part, the bridge, the user's words as prepared, then the file lists with the bridge's files. */
function bridgedResult(prepared: PreparedSummary, now: CompactionPreparation, entries: readonly BridgeEntry[], section: string, bridge: BridgeDetails): PreparedSummary['result'] {
  const result = prepared.result;
  const details = (result.details ?? {}) as Record<string, unknown>;
  const ops = createFileOps();
  addFileOpsFromDetails(ops, details, false);
  for (const entry of entries) addFileOpsFromMessage(ops, entry.message);
  const lists = computeFileLists(ops);
  const words = userWordsFromDetails(details, false) ?? { verbatim: [], ledger: [] };
  const body = section === '' ? summarizerPart(result.summary) : `${summarizerPart(result.summary)}\n\n${section}`;
  return {
    ...result,
    summary: withUserWords(body, words) + formatFileOperations(lists),
    firstKeptEntryId: now.firstKeptEntryId,
    tokensBefore: now.tokensBefore,
    details: { ...details, readFiles: lists.readFiles, modifiedFiles: lists.modifiedFiles, bridge },
  };
}
