// The table of compaction strategies (issue 17): a new strategy is one file plus one line here. Which one a
// run takes: the one the user asked for, else the setting's for automatic triggers, else in place.
import type { CompactionSettings } from '../settings';
import { contextFull } from './context-full';
import { handoff } from './handoff';
import { off } from './off';
import type { CompactionStrategy, RunOptions, StrategyName } from './types';

export const STRATEGIES: Readonly<Record<StrategyName, CompactionStrategy>> = {
  'context-full': contextFull,
  handoff,
  off,
};

export function strategyFor(options: RunOptions, settings: CompactionSettings): CompactionStrategy {
  if (options.strategy) return STRATEGIES[options.strategy];
  if (options.keepFrom !== undefined || options.reason === 'manual') return contextFull;
  const configured = STRATEGIES[settings.strategy];
  return configured.handles?.(options.reason) === false ? contextFull : configured;
}
