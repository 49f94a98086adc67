// The growth meter behind the adaptive background band (issue 25): tokens per second and per turn from
// observations with explicit times (deterministic), summary times, and the band they give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SUMMARY_MS, GROWTH_MARGIN, GrowthMeter } from '../../../src/compaction/growth-rate';
import { backgroundBandStart, compactionThreshold } from '../../../src/compaction/thresholds';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';

test('nothing is estimated before the context was seen growing three times', () => {
  const meter = new GrowthMeter();
  assert.equal(meter.estimate(), undefined);
  meter.observe(0, 1_000);
  meter.observe(100, 2_000);
  meter.observe(200, 3_000);
  assert.equal(meter.expectedGrowth(), undefined);
  meter.observe(300, 4_000);
  assert.ok(meter.expectedGrowth()! > 0);
});

/** A meter that saw `samples` turns of `tokens` each, `ms` apart. */
function warmed(tokens: number, ms: number, samples = 3): GrowthMeter {
  const meter = new GrowthMeter();
  for (let i = 0; i <= samples; i++) meter.observe(i * ms, i * tokens);
  return meter;
}

test('tokens per second and per turn, smoothed; the same figure twice is one observation', () => {
  const meter = warmed(1_000, 500); // 1,000 in 0.5 s, three times
  meter.observe(1_500, 3_000); // the same turn checked again
  assert.deepEqual(meter.estimate(), { tokensPerSecond: 2_000, tokensPerTurn: 1_000, summaryMs: DEFAULT_SUMMARY_MS, summaryMeasured: false });
  meter.observe(2_500, 3_500); // 500 in 1 s
  assert.equal(meter.estimate()!.tokensPerSecond, 1_250);
  assert.equal(meter.estimate()!.tokensPerTurn, 750);
});

test('a smaller context (a compaction) restarts the measurement without counting as growth', () => {
  const meter = warmed(1_000, 1_000); // 1,000 tokens/s up to 3,000 tokens at 3 s
  meter.observe(4_000, 500);
  assert.equal(meter.estimate()!.tokensPerSecond, 1_000);
  meter.observe(6_000, 2_500); // 2,000 in 2 s from the compacted figure
  assert.equal(meter.estimate()!.tokensPerSecond, 1_000);
});

test('the expected growth: rate × summary time × margin + one turn', () => {
  const meter = warmed(1_400, 200); // 7,000 tokens/s, 1,400 per turn
  meter.summaryTook(3_000);
  meter.summaryTook(0); // not a measurement
  assert.equal(meter.estimate()!.summaryMs, 3_000);
  assert.equal(meter.expectedGrowth(), Math.ceil(7_000 * 3 * GROWTH_MARGIN + 1_400));
});

test('the band: keepRecentTokens / 2 at least, the expected growth when larger, never below a quarter of the threshold', () => {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 8_000, reserveTokens: 16_384 };
  const threshold = compactionThreshold(50_000, settings);
  assert.equal(threshold, 33_616);
  assert.equal(backgroundBandStart(50_000, settings), threshold - 4_000);
  assert.equal(backgroundBandStart(50_000, settings, 1_000), threshold - 4_000);
  assert.equal(backgroundBandStart(50_000, settings, 10_000), threshold - 10_000);
  assert.equal(backgroundBandStart(50_000, settings, 40_000), Math.floor(threshold / 4));
});
