// The strategy table (src/compaction/strategies): which strategy a run takes, from the request and the
// setting. Manual runs and chosen cuts compact in place; the setting names the automatic strategy, except
// where that strategy declines a trigger (a handoff never recovers an overflow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_COMPACTION_SETTINGS, STRATEGIES, strategyFor, type CompactionSettings, type StrategyName } from '../../../src/compaction';
import type { CompactionReason } from '../../../src/compaction/hooks';

const withStrategy = (strategy: StrategyName): CompactionSettings => ({ ...DEFAULT_COMPACTION_SETTINGS, strategy });
const chosen = (reason: CompactionReason, strategy: StrategyName, extra: { keepFrom?: string; strategy?: StrategyName } = {}) =>
  strategyFor({ reason, ...extra }, withStrategy(strategy)).name;

test('every strategy setting has exactly one registered strategy under its own name', () => {
  for (const [name, strategy] of Object.entries(STRATEGIES)) assert.equal(strategy.name, name);
});

test('manual runs and chosen cuts compact in place whatever the setting', () => {
  assert.equal(chosen('manual', 'handoff'), 'context-full');
  assert.equal(chosen('manual', 'off'), 'context-full');
  assert.equal(chosen('threshold', 'handoff', { keepFrom: 'e1' }), 'context-full');
});

test('the setting names the automatic strategy; handoff declines overflow recovery', () => {
  assert.equal(chosen('threshold', 'handoff'), 'handoff');
  assert.equal(chosen('idle', 'handoff'), 'handoff');
  assert.equal(chosen('length', 'handoff'), 'handoff');
  assert.equal(chosen('overflow', 'handoff'), 'context-full');
  assert.equal(chosen('overflow', 'off'), 'off');
  assert.equal(STRATEGIES.off.refuse?.({ reason: 'threshold' }), 'disabled');
});

test('a strategy the user asked for runs whatever the setting says', () => {
  assert.equal(chosen('manual', 'context-full', { strategy: 'handoff' }), 'handoff');
});
