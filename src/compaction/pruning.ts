// Tool-output pruning (reference §3.11, omp): before the threshold check, old bulky tool output in the
// live context is replaced by a one-line notice. An output is protected when the outputs newer than it
// (of every tool, pruned ones included) are still inside the 40k window, so the newest output is always
// kept whatever its size; output of tools whose result *is* the working material (those that say
// `keepOutput`: read, skill; src/core/tool-history.ts) is never pruned, and nothing is rewritten unless
// the saving is worth a file rewrite.
import { rm } from 'node:fs/promises';
import type { AgentMessage, ToolResultMessage } from '../core/messages';
import { historyTraitsOf } from '../core/tool-history';
import type { CompactionEntry, MessageEntry, SessionEntry } from '../session/entries';
import { estimateTokens, type TokenEstimator } from './tokens';

export interface PruneConfig {
  /** newest tool-output tokens never pruned */
  protectTokens: number;
  /** prune only when at least this many tokens are saved */
  minimumSavings: number;
  /** tools whose output is never pruned (default: those whose traits say `keepOutput`) */
  keepsOutput(toolName: string): boolean;
}

function keepsOutput(toolName: string): boolean {
  return historyTraitsOf(toolName)?.keepOutput === true;
}

export const DEFAULT_PRUNE_CONFIG: Readonly<PruneConfig> = Object.freeze({
  protectTokens: 40_000,
  minimumSavings: 20_000,
  keepsOutput,
});

export interface PrunePlan {
  /** entry id → estimated tokens of the output being replaced */
  prune: Map<string, number>;
  tokensSaved: number;
}

export function pruneNotice(tokens: number): string {
  return `[Output truncated - ${tokens} tokens]`;
}

/** Entries whose messages the model currently sees (the latest compaction's kept part and after). */
export function liveContextEntries(path: readonly SessionEntry[]): SessionEntry[] {
  for (let c = path.length - 1; c >= 0; c--) {
    if (path[c]!.type !== 'compaction') continue;
    const firstKept = (path[c] as CompactionEntry).firstKeptEntryId;
    const keptStart = path.findIndex((e, i) => i < c && e.id === firstKept);
    return [...(keptStart >= 0 ? path.slice(keptStart, c) : []), ...path.slice(c + 1)];
  }
  return [...path];
}

function toolResultOf(entry: SessionEntry): ToolResultMessage | undefined {
  if (entry.type !== 'message') return undefined;
  const message = (entry as MessageEntry).message as AgentMessage | undefined;
  return message?.role === 'toolResult' ? message : undefined;
}

/** Decides what to prune; an empty plan when the saving is below the minimum. */
export function planPruning(
  pathEntries: readonly SessionEntry[],
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  estimator: TokenEstimator = estimateTokens,
): PrunePlan {
  const live = liveContextEntries(pathEntries);
  const prune = new Map<string, number>();
  let newerTokens = 0;
  let saved = 0;
  for (let i = live.length - 1; i >= 0; i--) {
    const result = toolResultOf(live[i]!);
    if (!result) continue;
    const tokens = estimator(result);
    const protectedByWindow = newerTokens < config.protectTokens;
    newerTokens += tokens;
    if (protectedByWindow || result.prunedAt !== undefined || config.keepsOutput(result.toolName)) continue;
    const noticeTokens = estimator({ ...result, content: [{ type: 'text', text: pruneNotice(tokens) }] });
    if (tokens <= noticeTokens) continue;
    prune.set(live[i]!.id, tokens);
    saved += tokens - noticeTokens;
  }
  return saved >= config.minimumSavings ? { prune, tokensSaved: saved } : { prune: new Map(), tokensSaved: 0 };
}

/** A copy of the entry with its tool output replaced (all other fields preserved). */
export function prunedEntry(entry: MessageEntry, tokens: number, now: number): MessageEntry {
  const message = entry.message as ToolResultMessage;
  return { ...entry, message: { ...message, content: [{ type: 'text', text: pruneNotice(tokens) }], prunedAt: now } };
}

/** Applies a plan to an entry list (pure); entries not in the plan are returned as the same objects. */
export function applyPrunePlan(entries: readonly SessionEntry[], plan: PrunePlan, now = Date.now()): SessionEntry[] {
  return entries.map((entry) => {
    const tokens = plan.prune.get(entry.id);
    return tokens !== undefined && toolResultOf(entry) ? prunedEntry(entry as MessageEntry, tokens, now) : entry;
  });
}

/** The store operations pruning needs (SessionStore satisfies this). */
export interface PruningStore {
  getBranch(): SessionEntry[];
  /** atomic rewrite of the whole file; the original is copied to `backupPath` first */
  rewriteEntries(mutator: (entries: SessionEntry[]) => SessionEntry[]): Promise<{ backupPath?: string } | void>;
  /** problems met when the file was read; a line-level one means lines that survive only in the backup */
  readonly loadReport?: readonly { line: number }[];
}

/**
 * Plans pruning on the current branch and, when worth it, rewrites the session file through the store
 * (atomic, with a backup). Returns the tokens saved (0 when nothing was rewritten); callers subtract it
 * from the measured context tokens and rebuild their context. The backup only guards the rewrite while it
 * is in flight: once it committed, it is removed, unless the file had unreadable lines (kept only there).
 */
export async function applyPruning(
  store: PruningStore,
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  estimator: TokenEstimator = estimateTokens,
): Promise<number> {
  const plan = planPruning(store.getBranch(), config, estimator);
  if (plan.prune.size === 0) return 0;
  const rewritten = await store.rewriteEntries((entries) => applyPrunePlan(entries, plan));
  await discardBackup(store, rewritten?.backupPath);
  return plan.tokensSaved;
}

async function discardBackup(store: PruningStore, backupPath: string | undefined): Promise<void> {
  if (!backupPath || store.loadReport?.some((problem) => problem.line > 0)) return;
  await rm(backupPath, { force: true });
}
