// Where the kept part of the history starts (docs/pi-compatibility.md "What a compaction summarizes"), with pi's quirks fixed:
//  (a) whether the cut splits a turn is decided on the cut entry itself, before metadata entries just
//      before it are pulled into the kept part, so a user message preceded by a label or model change
//      is a clean turn boundary, not a "split turn";
//  (b) when the newest entries (typically huge tool results) alone exceed the budget, pi finds no cut
//      point and keeps everything; we keep the newest assistant step and summarize everything before
//      it, splitting the turn if need be (a whole turn can be larger than the window);
//  (c) never cut at a tool result (it would lose its tool call); metadata just before the cut stays
//      with the kept part.
import type { SessionEntry } from '../session/entries';
import { compactionMessageOf, isCutPoint, isMetadata, isTurnStart } from './entry-messages';
import { estimateTokens, type TokenEstimator } from './tokens';

export interface CutPointResult {
  /** index of the first entry kept verbatim */
  firstKeptEntryIndex: number;
  /** when the cut splits a turn: index of the entry that started that turn; otherwise -1 */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  estimator: TokenEstimator = estimateTokens,
): CutPointResult {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) if (isCutPoint(entries[i]!)) cutPoints.push(i);
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  const cut = chooseCut(entries, cutPoints, startIndex, endIndex, keepRecentTokens, estimator);
  const turnStartIndex = isTurnStart(entries[cut]!) ? -1 : findTurnStart(entries, cut, startIndex);
  const firstKeptEntryIndex = pullBackMetadata(entries, cut, Math.max(startIndex, turnStartIndex + 1));
  return { firstKeptEntryIndex, turnStartIndex, isSplitTurn: turnStartIndex !== -1 };
}

/** Walks back from the newest entry until `keepRecentTokens` are covered, then picks a cut point. */
function chooseCut(
  entries: readonly SessionEntry[],
  cutPoints: readonly number[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  estimator: TokenEstimator,
): number {
  let kept = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const message = compactionMessageOf(entries[i]!);
    if (message) kept += estimator(message);
    if (kept < keepRecentTokens) continue;
    const atOrAfter = cutPoints.find((c) => c >= i);
    return atOrAfter ?? newestStepCut(cutPoints, startIndex);
  }
  return cutPoints[0]!; // everything fits: keep it all
}

/**
 * Quirk (b): the budget was exhausted inside the newest step (its tool output alone is larger). Keep
 * just that step, even when that splits the turn: keeping the whole turn could hold more than the
 * window, and the retry after an overflow would overflow again.
 */
function newestStepCut(cutPoints: readonly number[], startIndex: number): number {
  const newest = cutPoints[cutPoints.length - 1]!;
  return newest > startIndex ? newest : cutPoints[0]!;
}

function findTurnStart(entries: readonly SessionEntry[], cut: number, startIndex: number): number {
  for (let i = cut; i >= startIndex; i--) if (isTurnStart(entries[i]!)) return i;
  return -1;
}

function pullBackMetadata(entries: readonly SessionEntry[], cut: number, floor: number): number {
  let index = cut;
  while (index > floor && isMetadata(entries[index - 1]!)) index--;
  return index;
}

export interface ChosenCutResult extends CutPointResult {
  /** true when the chosen entry could not start the kept part and the cut moved back */
  snapped: boolean;
}

/**
 * A cut the user chose ("Compact Up To Here"): keep `chosenIndex` onwards. The same rule as the
 * automatic cut decides what may start the kept part (a cut point: never a tool result, which would
 * lose its tool call, nor a metadata or compaction entry). An entry that is not one snaps back to the
 * nearest cut point at or before it, so everything the user asked to keep is still kept. Unlike the
 * automatic cut, metadata just before the chosen entry is not pulled into the kept part: it carries no
 * message, and the kept part starts exactly where the user said. Undefined when no cut point lies in
 * [startIndex, chosenIndex].
 */
export function snapCutPoint(entries: readonly SessionEntry[], startIndex: number, chosenIndex: number): ChosenCutResult | undefined {
  let cut = chosenIndex;
  while (cut >= startIndex && !isCutPoint(entries[cut]!)) cut--;
  if (cut < startIndex) return undefined;
  const turnStartIndex = isTurnStart(entries[cut]!) ? -1 : findTurnStart(entries, cut, startIndex);
  return { firstKeptEntryIndex: cut, turnStartIndex, isSplitTurn: turnStartIndex !== -1, snapped: cut !== chosenIndex };
}
