// What a compaction will summarize and keep (pi 0.73.1's rule, docs/pi-compatibility.md "What a compaction summarizes"). Pure: reads the
// root→leaf path, calls no model, writes nothing, so the UI preview and the CLI `plan` command show
// exactly what the engine will do.
import { estimatedContextTokens } from './context-figures';
import type { AgentMessage } from '../core/messages';
import type { CompactionEntry, SessionEntry } from '../session/entries';
import { contextFromPath } from '../session/context';
import { applyContextEdit, contextEditsOf } from '../session/context-edits';
import { isExtensionSummary } from '../session/entry-fields';
import { pinChangeOf } from '../session/pins';
import { findCutPoint, snapCutPoint, type CutPointResult } from './cut-point';
import { compactionMessageOf, isCutPoint } from './entry-messages';
import { addFileOpsFromDetails, addFileOpsFromMessage, createFileOps, type FileOperations } from './file-ops';
import { bridgeStartOf } from './bridge-origin';
import { pinnedEntryIds } from './constraints';
import { planUserWords, userWordsBudget, userWordsFromDetails, type UserWords, type UserWordsPlan } from './user-words';
import type { CompactionSettings } from './settings';
import { calculateContextTokens, estimateTokens, hasValidUsage, sumTokens, type TokenEstimator } from './tokens';

export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** history before the kept part (and before the split turn, if any) */
  messagesToSummarize: AgentMessage[];
  /**
   * how many of the first messagesToSummarize are the previous compaction's bridge: the context holds them
   * only shortened, in the previous summary (docs/architecture.md, "Background compaction"); 0 when none
   */
  bridgedMessages: number;
  /** the early part of a turn whose end is kept (split turn only) */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** id of the entry that started the split turn */
  turnStartEntryId?: string;
  summarizeEntryIds: string[];
  turnPrefixEntryIds: string[];
  /** messages kept verbatim (from firstKeptEntryId to the leaf), for previews and native compaction */
  keptMessages: AgentMessage[];
  keptEntryIds: string[];
  /** context tokens now: provider usage where trustworthy, plus estimates */
  tokensBefore: number;
  /** summary of the previous compaction on the path; the new summary updates it */
  previousSummary?: string;
  fileOps: FileOperations;
  /**
   * the user's words, kept verbatim by construction (docs/architecture.md, "What the user said"): the
   * previous compaction's plus every user and pinned message of the summarized span, within the budget
   */
  userWords: UserWordsPlan;
  settings: CompactionSettings;
  /**
   * keepRecentTokens after rescaling by the measured usage/estimate ratio (estimator units); for a cut
   * the user chose (prepareCompactionAt), the estimated tokens of the kept part
   */
  effectiveKeepRecentTokens: number;
}

export interface PrepareOptions {
  estimator?: TokenEstimator;
  /**
   * Tokens of the system prompt and tool definitions, which provider usage includes but the message
   * estimate cannot see; subtracted before computing the usage/estimate ratio.
   */
  fixedOverheadTokens?: number;
  /** exact tokens to keep (estimator units, no usage rescaling): a manual compaction's newest turn */
  keepRecentTokensOverride?: number;
  /** the budget for the user's verbatim words (default: userWordsBudget of an unknown window, 20k) */
  userWordsTokens?: number;
  /** plan even when the newest entry is a compaction (a background summary started right after a commit) */
  afterCompaction?: boolean;
}

/** The ratio is clamped so one odd usage report (cache accounting, images) cannot distort the cut wildly. */
const MIN_RATIO = 0.25;
const MAX_RATIO = 4;

/**
 * Returns undefined when there is nothing to do: an empty path, the newest entry is already a
 * compaction, or everything fits in the kept part. (pi would still call the model over an empty
 * conversation and append a compaction that keeps everything; we follow omp and skip it, because such a
 * compaction costs a model call and saves nothing.)
 */
export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  options: PrepareOptions = {},
): CompactionPreparation | undefined {
  const estimator = options.estimator ?? estimateTokens;
  const last = pathEntries[pathEntries.length - 1];
  if (!last || (last.type === 'compaction' && !options.afterCompaction)) return undefined;

  const { previous, boundaryStart, spanStart } = contextStart(pathEntries);

  const measured = measureContext(pathEntries, estimator, options.fixedOverheadTokens ?? 0);
  const effectiveKeepRecentTokens =
    options.keepRecentTokensOverride ?? Math.max(1, Math.round(settings.keepRecentTokens / measured.ratio));
  const cut = findCutPoint(pathEntries, boundaryStart, pathEntries.length, effectiveKeepRecentTokens, estimator);
  return buildPreparation(pathEntries, previous, { boundaryStart, spanStart }, cut, measured, settings, () => effectiveKeepRecentTokens, options.userWordsTokens);
}

/** Why a chosen cut was refused; `nothing-to-compact` when nothing of the context lies before it. */
export type ChosenCutRefusal = 'not-on-path' | 'already-summarized' | 'nothing-to-compact';

export type ChosenCutPreparation =
  | {
      ok: true;
      preparation: CompactionPreparation;
      /** the entry the user chose; preparation.firstKeptEntryId differs when it was snapped */
      requestedEntryId: string;
      snapped: boolean;
      /** says where the cut moved and why (snapped only) */
      note?: string;
    }
  | { ok: false; why: ChosenCutRefusal; message: string };

/**
 * "Compact Up To Here": keep the path from `keepFromId` on verbatim and summarize what the context holds
 * before it (from the latest compaction's kept start, folding in its summary like prepareCompaction).
 * `keepFromId` must be on the path at or after that kept start; an entry that cannot start the kept
 * part (a tool result, whose tool call would be lost; metadata) snaps back to the nearest cut point
 * before it (`snapped`, `note`). Refused, with a message for the user, when the entry is not on the
 * path, was already summarized, or nothing precedes it. Unlike prepareCompaction, a leaf that is a
 * compaction is not "already compacted": the user may still move the cut further forward.
 */
export function prepareCompactionAt(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  keepFromId: string,
  options: Omit<PrepareOptions, 'keepRecentTokensOverride'> = {},
): ChosenCutPreparation {
  const estimator = options.estimator ?? estimateTokens;
  const index = pathEntries.findIndex((e) => e.id === keepFromId);
  if (index === -1) {
    return { ok: false, why: 'not-on-path', message: 'That entry is not on the current branch: switch to its branch first, then compact.' };
  }
  const { prevIndex, previous, boundaryStart, spanStart } = contextStart(pathEntries);
  if (index === prevIndex) {
    return { ok: false, why: 'nothing-to-compact', message: 'Nothing to compact before this point: the context already starts with this summary.' };
  }
  if (index < boundaryStart) {
    return {
      ok: false,
      why: 'already-summarized',
      message: 'That entry is already summarized by the latest compaction: pick an entry the context still holds (after it).',
    };
  }
  const cut = snapCutPoint(pathEntries, boundaryStart, index);
  const measured = measureContext(pathEntries, estimator, options.fixedOverheadTokens ?? 0);
  const preparation = cut
    ? buildPreparation(pathEntries, previous, { boundaryStart, spanStart }, cut, measured, settings, (kept) => Math.max(1, sumTokens(kept, 0, kept.length, estimator)), options.userWordsTokens)
    : undefined;
  if (!preparation) {
    return { ok: false, why: 'nothing-to-compact', message: 'Nothing to compact before this entry: it is the oldest one the context holds.' };
  }
  const snapped = cut!.snapped;
  return {
    ok: true,
    preparation,
    requestedEntryId: keepFromId,
    snapped,
    ...(snapped ? { note: snapNote(pathEntries[index]!, pathEntries[cut!.firstKeptEntryIndex]!) } : {}),
  };
}

/**
 * Where the model's context starts on a path: the latest compaction (index -1 when none) and the first
 * entry it kept. Every cut (automatic, chosen, or offered in the picker) must lie at or after that start.
 * `spanStart`: where the next summary's span starts, the kept start or, when that compaction bridged the
 * entries before it, its bridge origin (./bridge-commit.ts).
 */
function contextStart(pathEntries: readonly SessionEntry[]): { prevIndex: number; previous: CompactionEntry | undefined; boundaryStart: number; spanStart: number } {
  const prevIndex = findLastCompaction(pathEntries);
  const previous = prevIndex >= 0 ? (pathEntries[prevIndex] as CompactionEntry) : undefined;
  const boundaryStart = previous ? keptStartOf(pathEntries, prevIndex, previous.firstKeptEntryId) : 0;
  return { prevIndex, previous, boundaryStart, spanStart: previous ? bridgeStartOf(pathEntries, previous, boundaryStart) : 0 };
}

/**
 * Ids of the path entries a "Compact Up To Here" can keep from as they are (no snapping, no refusal):
 * cut points after the latest compaction's kept start with at least one message before them.
 */
export function compactionCutTargets(pathEntries: readonly SessionEntry[]): Set<string> {
  const { boundaryStart } = contextStart(pathEntries);
  const targets = new Set<string>();
  let seenMessage = false;
  for (let i = boundaryStart; i < pathEntries.length; i++) {
    const entry = pathEntries[i]!;
    if (seenMessage && isCutPoint(entry)) targets.add(entry.id);
    if (compactionMessageOf(entry)) seenMessage = true;
  }
  return targets;
}

function snapNote(requested: SessionEntry, cut: SessionEntry): string {
  const why =
    requested.type === 'message' && requested.message.role === 'toolResult'
      ? 'a tool result cannot be kept without the tool call before it'
      : 'that entry carries no message the context could start with';
  return `The kept part starts at the nearest earlier ${entryKind(cut)} instead: ${why}.`;
}

function entryKind(entry: SessionEntry): string {
  if (entry.type === 'branch_summary') return 'branch summary';
  if (entry.type === 'custom_message') return 'extension message';
  if (entry.type !== 'message') return 'entry';
  switch (entry.message.role) {
    case 'user':
      return 'user message';
    case 'assistant':
      return 'assistant message';
    case 'bashExecution':
      return 'shell command';
    default:
      return 'message';
  }
}

/** The preparation for a cut, or undefined when nothing lies before it (the shared tail of both entry points). */
function buildPreparation(
  pathEntries: readonly SessionEntry[],
  previous: CompactionEntry | undefined,
  { boundaryStart, spanStart }: { boundaryStart: number; spanStart: number },
  cut: CutPointResult,
  measured: MeasuredContext,
  settings: CompactionSettings,
  keepTokens: (kept: AgentMessage[]) => number,
  userWordsTokens: number | undefined,
): CompactionPreparation | undefined {
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const summarized = collect(pathEntries, spanStart, historyEnd);
  const prefix = cut.isSplitTurn ? collect(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex) : emptySpan();
  if (summarized.messages.length === 0 && prefix.messages.length === 0) return undefined;
  const kept = collect(pathEntries, cut.firstKeptEntryIndex, pathEntries.length);

  const fileOps = createFileOps();
  if (previous) addFileOpsFromDetails(fileOps, previous.details, isExtensionSummary(previous));
  for (const message of summarized.messages) addFileOpsFromMessage(fileOps, message);
  for (const message of prefix.messages) addFileOpsFromMessage(fileOps, message);

  const stageKept = stageWords(pathEntries, spanStart, cut.firstKeptEntryIndex);
  const userWords = planUserWords(
    carriedWords(previous, stageKept),
    [...spanEntries(summarized), ...spanEntries(prefix)],
    pinnedWithStages(pathEntries, stageKept),
    userWordsTokens ?? userWordsBudget(undefined),
  );

  const preparation: CompactionPreparation = {
    firstKeptEntryId: pathEntries[cut.firstKeptEntryIndex]!.id,
    messagesToSummarize: summarized.messages,
    bridgedMessages: collect(pathEntries, spanStart, boundaryStart).messages.length,
    turnPrefixMessages: prefix.messages,
    isSplitTurn: cut.isSplitTurn,
    summarizeEntryIds: summarized.ids,
    turnPrefixEntryIds: prefix.ids,
    keptMessages: kept.messages,
    keptEntryIds: kept.ids,
    tokensBefore: measured.tokens,
    fileOps,
    userWords,
    settings,
    effectiveKeepRecentTokens: keepTokens(kept.messages),
  };
  if (cut.isSplitTurn) preparation.turnStartEntryId = pathEntries[cut.turnStartIndex]!.id;
  if (previous) preparation.previousSummary = previous.summary;
  return preparation;
}

/**
 * Estimated tokens of the newest turn (from its last user or bash message to the end). A manual
 * compaction of a session that fits in keepRecentTokens keeps just this much: the user asked to
 * compact, so everything older is summarized rather than "nothing to compact".
 */
export function newestTurnTokens(pathEntries: readonly SessionEntry[], estimator: TokenEstimator = estimateTokens): number {
  let tokens = 0;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    const entry = pathEntries[i]!;
    if (entry.type === 'compaction') break;
    if (entry.type !== 'message') continue;
    tokens += estimator(entry.message);
    if (entry.message.role === 'user' || entry.message.role === 'bashExecution') break;
  }
  return Math.max(1, tokens);
}

function findLastCompaction(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === 'compaction') return i;
  return -1;
}

/** 0.73.1 rule: start at the previous compaction's first kept entry, so what it kept is re-summarized. */
function keptStartOf(path: readonly SessionEntry[], compactionIndex: number, firstKeptEntryId: string): number {
  for (let i = 0; i < compactionIndex; i++) if (path[i]!.id === firstKeptEntryId) return i;
  return compactionIndex + 1;
}

interface Span {
  messages: AgentMessage[];
  ids: string[];
}

/** What the previous compaction kept, then what stage summaries in the span kept (Summarize from Here). */
function carriedWords(previous: CompactionEntry | undefined, stages: readonly UserWords[]): UserWords | undefined {
  const before = previous ? userWordsFromDetails(previous.details, isExtensionSummary(previous)) : undefined;
  if (stages.length === 0) return before;
  const all = [...(before ? [before] : []), ...stages];
  return {
    version: 1,
    budgetTokens: before?.budgetTokens ?? userWordsBudget(undefined),
    verbatim: all.flatMap((w) => w.verbatim),
    ledger: all.flatMap((w) => w.ledger),
    ...(before?.ledgerDropped ? { ledgerDropped: before.ledgerDropped } : {}),
  };
}

/** The words stage summaries being summarized had kept (older ones: their classifier sentences), carried on like a compaction's. */
function stageWords(path: readonly SessionEntry[], from: number, to: number): UserWords[] {
  return path.slice(from, to).flatMap((entry) => (entry.type === 'branch_summary' ? (userWordsFromDetails(entry.details, isExtensionSummary(entry)) ?? []) : []));
}

/**
 * The messages pinned on this path, plus those a stage summary kept as pinned: their pin entries stayed on
 * the summarized originals' branch, so only an unpin on this path releases them.
 */
function pinnedWithStages(path: readonly SessionEntry[], stages: readonly UserWords[]): Set<string> {
  const pinned = pinnedEntryIds(path);
  const unpinned = new Set(path.flatMap((entry) => (pinChangeOf(entry)?.pinned === false ? [pinChangeOf(entry)!.targetId] : [])));
  for (const kept of stages.flatMap((w) => w.verbatim)) if (kept.pinned && !unpinned.has(kept.entryId)) pinned.add(kept.entryId);
  return pinned;
}

function spanEntries(span: Span): { id: string; message: AgentMessage }[] {
  return span.messages.map((message, i) => ({ id: span.ids[i]!, message }));
}

function emptySpan(): Span {
  return { messages: [], ids: [] };
}

/** The messages of `path[from..to)` as the context shows them: the path's context edits applied (pi 1.5). */
function collect(path: readonly SessionEntry[], from: number, to: number): Span {
  const span = emptySpan();
  const edits = contextEditsOf(path);
  for (let i = from; i < to; i++) {
    const original = compactionMessageOf(path[i]!);
    const message = original && applyContextEdit(original, edits.get(path[i]!.id));
    if (!message) continue;
    span.messages.push(message);
    span.ids.push(path[i]!.id);
  }
  return span;
}

export interface MeasuredContext {
  tokens: number;
  /** provider tokens / estimated tokens of the same messages; 1 when no trustworthy usage exists */
  ratio: number;
  /** whether `tokens` is anchored on provider usage */
  fromUsage: boolean;
}

/**
 * Context tokens of the path as the model sees it now. Usage reported before the latest compaction
 * describes the old, larger context and is ignored (it would overstate the size and skew the ratio).
 */
export function measureContext(
  path: readonly SessionEntry[],
  estimator: TokenEstimator = estimateTokens,
  fixedOverheadTokens = 0,
): MeasuredContext {
  const messages = contextFromPath(path).messages;
  const afterCompaction = messagesAfterLatestCompaction(path);
  const firstTrusted = Math.max(0, messages.length - afterCompaction);
  let usageIndex = -1;
  for (let i = messages.length - 1; i >= firstTrusted; i--) {
    if (hasValidUsage(messages[i]!)) {
      usageIndex = i;
      break;
    }
  }
  // No usage: the estimates plus the system prompt and tools, as the meter counts it (./context-figures.ts).
  if (usageIndex === -1) return { tokens: estimatedContextTokens(messages, estimator, fixedOverheadTokens), ratio: 1, fromUsage: false };
  const usage = (messages[usageIndex] as Extract<AgentMessage, { role: 'assistant' }>).usage;
  const usageTokens = calculateContextTokens(usage);
  const tokens = usageTokens + sumTokens(messages, usageIndex + 1, messages.length, estimator);
  const estimated = sumTokens(messages, 0, usageIndex + 1, estimator);
  const measuredMessages = usageTokens - fixedOverheadTokens;
  const raw = estimated > 0 && measuredMessages > 0 ? measuredMessages / estimated : 1;
  return { tokens, ratio: Math.min(MAX_RATIO, Math.max(MIN_RATIO, raw)), fromUsage: true };
}

function messagesAfterLatestCompaction(path: readonly SessionEntry[]): number {
  let count = 0;
  const edits = contextEditsOf(path);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === 'compaction') return count;
    const original = compactionMessageOf(entry);
    const message = original && applyContextEdit(original, edits.get(entry.id));
    // The context builder drops empty branch summaries; count exactly what it emits.
    if (message && !(entry.type === 'branch_summary' && !(entry as { summary?: string }).summary)) count++;
  }
  return count;
}
