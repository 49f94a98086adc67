import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_COMPACTION_SETTINGS, parseCompactionSettings } from '../../../src/compaction/settings';
import { compactionThreshold, idleCompactionDue, idleTimeoutMs, shouldCompact } from '../../../src/compaction/thresholds';

test('missing settings take the documented defaults without warnings', () => {
  const { settings, warnings } = parseCompactionSettings(undefined);
  assert.deepEqual(warnings, []);
  assert.deepEqual(settings, { ...DEFAULT_COMPACTION_SETTINGS });
  assert.equal(settings.strategy, 'context-full');
  assert.equal(settings.reserveTokens, 16384);
  assert.equal(settings.keepRecentTokens, 20000);
  assert.equal(settings.idleThresholdTokens, 200000);
  assert.equal(settings.idleTimeoutSeconds, 300);
  assert.equal(settings.thresholdPercent, -1);
});

test('each invalid value gets one warning and its default; valid ones still apply', () => {
  const { settings, warnings } = parseCompactionSettings({
    strategy: 'aggressive',
    reserveTokens: -5,
    keepRecentTokens: 1000,
    enabled: 'yes',
    thresholdPercent: 80,
  });
  assert.equal(warnings.length, 3);
  assert.match(warnings.find((w) => w.includes('strategy'))!, /"aggressive".*"context-full"/);
  assert.match(warnings.find((w) => w.includes('reserveTokens'))!, /16384/);
  assert.match(warnings.find((w) => w.includes('enabled'))!, /true or false/);
  assert.equal(settings.strategy, 'context-full');
  assert.equal(settings.reserveTokens, 16384);
  assert.equal(settings.enabled, true);
  assert.equal(settings.keepRecentTokens, 1000);
  assert.equal(settings.thresholdPercent, 80);
});

test('idleTimeoutSeconds is clamped to 60–3600 with a warning', () => {
  const low = parseCompactionSettings({ idleTimeoutSeconds: 5 });
  assert.equal(low.settings.idleTimeoutSeconds, 60);
  assert.equal(low.warnings.length, 1);
  assert.equal(parseCompactionSettings({ idleTimeoutSeconds: 99999 }).settings.idleTimeoutSeconds, 3600);
  assert.equal(parseCompactionSettings({ idleTimeoutSeconds: 120 }).warnings.length, 0);
});

test('an unusable remote endpoint is reported and disabled', () => {
  const result = parseCompactionSettings({ remoteEndpoint: 'ftp://example.com' });
  assert.equal(result.settings.remoteEndpoint, '');
  assert.equal(result.warnings.length, 1);
});

test('threshold: tokens override, then percent, then window − max(15%, reserve)', () => {
  const base = { ...DEFAULT_COMPACTION_SETTINGS };
  assert.equal(compactionThreshold(200_000, base), 200_000 - 30_000, '15% wins over a 16k reserve');
  assert.equal(compactionThreshold(100_000, base), 100_000 - 16_384, 'reserve wins when larger than 15%');
  assert.equal(compactionThreshold(200_000, { ...base, thresholdPercent: 50 }), 100_000);
  assert.equal(compactionThreshold(200_000, { ...base, thresholdPercent: 50, thresholdTokens: 12345 }), 12345);
  assert.equal(compactionThreshold(1000, { ...base, thresholdTokens: 5000 }), 999, 'clamped below the window');
});

test('shouldCompact respects enabled, strategy off and the threshold', () => {
  const base = { ...DEFAULT_COMPACTION_SETTINGS };
  assert.equal(shouldCompact(170_001, 200_000, base), true);
  assert.equal(shouldCompact(170_000, 200_000, base), false);
  assert.equal(shouldCompact(199_000, 200_000, { ...base, enabled: false }), false);
  assert.equal(shouldCompact(199_000, 200_000, { ...base, strategy: 'off' }), false);
  assert.equal(shouldCompact(199_000, 0, base), false);
});

test('idle rule: own switch, threshold, and never while typing or busy', () => {
  const on = { ...DEFAULT_COMPACTION_SETTINGS, idleEnabled: true, enabled: false };
  const state = { promptTokens: 250_000, userTyping: false, agentBusy: false, compacting: false };
  assert.equal(idleCompactionDue(on, state), true, 'runs even when automatic compaction is disabled');
  assert.equal(idleCompactionDue({ ...on, idleEnabled: false }, state), false);
  assert.equal(idleCompactionDue({ ...on, strategy: 'off' }, state), false);
  assert.equal(idleCompactionDue(on, { ...state, promptTokens: 199_999 }), false);
  assert.equal(idleCompactionDue(on, { ...state, userTyping: true }), false);
  assert.equal(idleCompactionDue(on, { ...state, agentBusy: true }), false);
  assert.equal(idleCompactionDue(on, { ...state, promptTokens: undefined }), false);
  assert.equal(idleTimeoutMs({ idleTimeoutSeconds: 10 }), 60_000);
});
