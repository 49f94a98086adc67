// When automatic compaction should run. Follows omp (docs/pi-compatibility.md "When compaction runs"): a positive thresholdTokens wins, then a
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

/** The band never starts below this share of the threshold: a summary needs something to summarize. */
export const MIN_BAND_START_SHARE = 0.25;

/**
 * Where background compaction starts (docs/architecture.md, "Background compaction"): as far below the
 * threshold as the context is expected to grow while the summary is written (`expectedGrowth`, from
 * ./growth-rate.ts), at least half of keepRecentTokens (also the band before any growth was measured),
 * never below a quarter of the threshold. Started there, the summary is ready when the threshold is reached.
 */
export function backgroundBandStart(contextWindow: number, settings: CompactionSettings, expectedGrowth?: number): number {
  const threshold = compactionThreshold(contextWindow, settings);
  const lead = Math.max(Math.floor(settings.keepRecentTokens / 2), Math.ceil(expectedGrowth ?? 0));
  return Math.max(threshold - lead, Math.floor(threshold * MIN_BAND_START_SHARE));
}

/** Whether the context is in the band where the threshold summary is written ahead of time. */
export function inBackgroundBand(contextTokens: number, contextWindow: number, settings: CompactionSettings, expectedGrowth?: number): boolean {
  if (!settings.background || !settings.enabled || settings.strategy !== 'context-full' || contextWindow <= 0) return false;
  return contextTokens >= backgroundBandStart(contextWindow, settings, expectedGrowth) && !shouldCompact(contextTokens, contextWindow, settings);
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
