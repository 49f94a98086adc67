// The idle clock runs only from the request on: time spent before the first kick (loading the SDK
// lazily) never counts as a stalled stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdleWatchdog } from '../../../src/llm/attempt';

test('no timeout before the first kick, however long that takes', async () => {
  const watchdog = new IdleWatchdog(20);
  await sleep(80);
  assert.equal(watchdog.timedOut, false);
  assert.equal(watchdog.signal.aborted, false);
  watchdog.dispose();
});

test('after a kick, silence longer than the idle time aborts; data keeps it alive', async () => {
  const watchdog = new IdleWatchdog(40);
  watchdog.kick();
  for (let i = 0; i < 4; i++) {
    await sleep(15);
    watchdog.kick();
  }
  assert.equal(watchdog.timedOut, false, 'kicks every 15 ms keep a 40 ms watchdog quiet');
  await sleep(120);
  assert.equal(watchdog.timedOut, true);
  assert.equal(watchdog.signal.aborted, true);
  watchdog.dispose();
});

test('the caller’s abort passes through, before or after the first kick', () => {
  const user = new AbortController();
  const watchdog = new IdleWatchdog(1000, user.signal);
  user.abort();
  assert.equal(watchdog.signal.aborted, true);
  assert.equal(watchdog.timedOut, false);
  watchdog.dispose();
  const already = new AbortController();
  already.abort();
  assert.equal(new IdleWatchdog(1000, already.signal).signal.aborted, true);
});
