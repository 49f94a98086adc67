// When automatic compaction should run. Follows seed 001: a positive thresholdTokens wins, then a
// positive thresholdPercent, otherwise the window minus max(15% of the window, reserveTokens).
import type { CompactionSettings } from './settings';
import { IDLE_TIMEOUT_MAX_SECONDS, IDLE_TIMEOUT_MIN_SECONDS } from './settings';

/** Share of the window always kept free by the default rule, even when reserveTokens is smaller. */
export const MIN_RESERVE_SHARE = 0.15;

type ThresholdSettings = Pick<CompactionSettings, 'thresholdTokens' | 'thresholdPercent' | 'reserveTokens'>;

/** Context tokens above which compaction runs, for a model with `contextWindow` tokens. */
export function compactionThreshold(contextWindow: number, settings: ThresholdSettings): number {
  if (settings.thresholdTokens > 0) return clamp(Math.floor(settings.thresholdTokens), 1, contextWindow - 1);
  if (settings.thresholdPercent > 0) {
    return Math.floor((contextWindow * clamp(settings.thresholdPercent, 1, 99)) / 100);
  }
  const reserve = Math.max(Math.floor(contextWindow * MIN_RESERVE_SHARE), settings.reserveTokens);
  return contextWindow - reserve;
}

/** Threshold rule for automatic compaction after a successful turn. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  if (!settings.enabled || settings.strategy === 'off' || contextWindow <= 0) return false;
  return contextTokens > compactionThreshold(contextWindow, settings);
}

/**
 * Where background compaction starts (docs/architecture.md, "Background compaction"): half of
 * keepRecentTokens below the threshold, never below half of it. A summary written there stays valid while
 * the context grows by at most keepRecentTokens, so the turn that crosses the threshold may overshoot it by
 * the other half and the summary is still ready and valid in the common case.
 */
export function backgroundBandStart(contextWindow: number, settings: CompactionSettings): number {
  const threshold = compactionThreshold(contextWindow, settings);
  return Math.max(threshold - Math.floor(settings.keepRecentTokens / 2), Math.floor(threshold / 2));
}

/** Whether the context is in the band where the threshold summary is written ahead of time. */
export function inBackgroundBand(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  if (!settings.background || !settings.enabled || settings.strategy !== 'context-full' || contextWindow <= 0) return false;
  return contextTokens >= backgroundBandStart(contextWindow, settings) && !shouldCompact(contextTokens, contextWindow, settings);
}

export function idleTimeoutMs(settings: Pick<CompactionSettings, 'idleTimeoutSeconds'>): number {
  return clamp(settings.idleTimeoutSeconds, IDLE_TIMEOUT_MIN_SECONDS, IDLE_TIMEOUT_MAX_SECONDS) * 1000;
}

export interface IdleState {
  /** prompt tokens of the newest valid assistant reply newer than the latest compaction (undefined: unknown) */
  promptTokens: number | undefined;
  userTyping: boolean;
  agentBusy: boolean;
  compacting: boolean;
}

/**
 * Whether the idle timer should be armed (and, when it fires, whether idle compaction should still
 * run: callers re-check with fresh state). Idle compaction ignores `enabled` (it has its own switch)
 * but never runs with strategy "off".
 */
export function idleCompactionDue(settings: CompactionSettings, state: IdleState): boolean {
  if (!settings.idleEnabled || settings.strategy === 'off') return false;
  if (state.userTyping || state.agentBusy || state.compacting) return false;
  if (settings.idleThresholdTokens <= 0 || state.promptTokens === undefined) return false;
  return state.promptTokens >= settings.idleThresholdTokens;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
