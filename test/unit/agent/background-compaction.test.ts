// Background compaction (issue 17): the threshold summary is written ahead of time in the band below the
// threshold and committed at the threshold without a model call when it is ready and still valid; stale
// (the branch moved, the context grew past keepRecentTokens, settings changed) it is discarded; a failure
// is silent and the normal path runs; the session file is untouched until the commit. Issue 25: the band
// adapts to the measured growth (a manual clock: deterministic), the summary keeps less by the growth
// expected before the commit, and one written too early is written again with the first as a fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { CompactionRunner } from '../../../src/compaction/runner';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/compaction/settings';
import { CompactionHookRegistry } from '../../../src/compaction/hooks';
import { BackgroundCompaction, keepBeforeGrowth } from '../../../src/agent/background-compaction';
import { FAKE_MODEL, FakeProvider, type Answer } from '../compaction/fake-provider';
import { chars, wellFormedSummary } from '../compaction/fixtures';
import { ManualClock } from './manual-clock';

// Band: [threshold - keepRecentTokens / 2, threshold] = [9600, 10000].
const THRESHOLD = 10_000;

async function turn(store: SessionStore, i: number): Promise<void> {
  await store.appendMessage({ role: 'user', content: `REQUEST-${i} ${chars(400)}`, timestamp: Date.now() });
  await store.appendMessage({
    role: 'assistant', content: [{ type: 'text', text: `ANSWER-${i} ${chars(400)}` }],
    api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'stop', timestamp: Date.now(),
  });
}

/**
 * `unbridgeable`: the summaries carry a payload a hook added (as native compaction does), so they cannot be
 * committed with a bridge (src/compaction/bridge-commit.ts) and a rewrite is still worth its bill.
 */
async function setup(script: (request: { messages: unknown[] }) => Answer | Promise<Answer> = summary, { unbridgeable = false } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-background-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  for (let i = 0; i < 6; i++) await turn(store, i);
  const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 800, thresholdTokens: THRESHOLD };
  const provider = new FakeProvider(script);
  const logs: string[] = [];
  const hooks = new CompactionHookRegistry();
  if (unbridgeable) hooks.register({ compacting: () => ({ preserveData: { payload: 'native' } }) });
  const runner = new CompactionRunner({
    store,
    hooks,
    settings: () => settings,
    models: () => ({ current: FAKE_MODEL, available: [FAKE_MODEL] }),
    providerFor: () => provider,
    retry: { maxRetries: 0, baseDelayMs: 1, sleep: async () => {} },
    log: (m) => logs.push(m),
  });
  const clock = new ManualClock();
  const background = new BackgroundCompaction({ runner, branch: () => store.getBranch(), settings: () => settings, model: () => FAKE_MODEL, now: () => clock.now(), log: (m) => logs.push(m) });
  const bytes = () => readFile(store.file, 'utf8');
  return { dir, store, settings, provider, runner, background, logs, bytes, clock, done: () => rm(dir, { recursive: true, force: true }) };
}

/** A summarizer that answers only once `release` is called. */
function gated() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const script = async (request: { messages: unknown[] }): Promise<Answer> => {
    await gate;
    return summary(request);
  };
  return { release: () => release(), script };
}

function summary(request: { messages: unknown[] }): Answer {
  return JSON.stringify(request.messages).includes('Write a recap') ? 'Recap.' : wellFormedSummary('BG');
}

test('below the band nothing starts; in the band the summary is written without touching the file', async () => {
  const h = await setup();
  try {
    const before = await h.bytes();
    h.background.consider(9_500);
    assert.equal(h.background.pending, undefined, 'below the band');
    h.background.consider(9_700);
    assert.ok(h.background.pending, 'in the band');
    await h.background.pending;
    assert.ok(h.provider.requests.length > 0);
    assert.equal(await h.bytes(), before, 'nothing is written before the commit');
  } finally {
    await h.done();
  }
});

test('ready and valid: committed at the threshold without a model call', async () => {
  const h = await setup();
  try {
    h.background.consider(9_700);
    await h.background.pending;
    await turn(h.store, 6); // the conversation went on (less than keepRecentTokens)
    const calls = h.provider.requests.length;
    const prepared = await h.background.take(10_100);
    assert.ok(prepared, 'the ready summary is taken');
    const outcome = await h.runner.run({ reason: 'threshold', prepared });
    assert.equal(outcome.status, 'compacted');
    assert.equal(h.provider.requests.length, calls, 'no model call at the threshold');
    const entry = h.store.getBranch().at(-1)!;
    assert.equal(entry.type, 'compaction');
    assert.match((entry as { summary: string }).summary, /BG/);
    assert.equal(h.store.getBranch().filter((e) => e.type === 'compaction').length, 1);
  } finally {
    await h.done();
  }
});

test('stale: the branch moved → discarded', async () => {
  const h = await setup();
  try {
    h.background.consider(9_700);
    await h.background.pending;
    const branch = h.store.getBranch();
    h.store.branch(branch[branch.length - 3]!.id);
    await turn(h.store, 7);
    assert.equal(await h.background.take(10_100), undefined);
    assert.ok(h.logs.some((l) => l.includes('stale (path)')), h.logs.join('\n'));
  } finally {
    await h.done();
  }
});

test('stale: the kept part outgrew its allowance, or other settings → discarded', async () => {
  const h = await setup();
  try {
    // Started 300 below the threshold, the summary keeps 800 - 300 = 500; with no growth measured the kept
    // part may reach 2 × keepRecentTokens = 1600 by the commit, so 1101 more tokens are too many.
    h.background.consider(9_700);
    await h.background.pending;
    assert.equal(await h.background.take(9_700 + 1_101), undefined, 'the kept part would exceed 1600');
    assert.ok(h.logs.some((l) => l.includes('stale (growth)')));
    h.background.consider(9_800);
    await h.background.pending;
    h.settings.reserveTokens = 1000;
    assert.equal(await h.background.take(10_100), undefined);
    assert.ok(h.logs.some((l) => l.includes('stale (settings)')));
  } finally {
    await h.done();
  }
});

test('stale: another compaction came after it was started → discarded, never committed over the newer one (docs: summaries do not overlap)', async () => {
  const h = await setup();
  try {
    h.background.consider(9_700);
    await h.background.pending;
    const before = await h.runner.run({ reason: 'manual' });
    assert.equal(before.status, 'compacted', 'a compaction of its own, not from the background summary');
    await turn(h.store, 6);
    assert.equal(await h.background.take(10_100), undefined);
    assert.ok(h.logs.some((l) => l.includes('stale (compacted)')), h.logs.join('\n'));
    assert.equal(h.store.getBranch().filter((e) => e.type === 'compaction').length, 1, 'only the compaction that ran');
  } finally {
    await h.done();
  }
});

test('stale: the leaf moved while it was written → cancelled at once (no wasted commit)', async () => {
  const { release, script } = gated();
  const h = await setup(script);
  try {
    h.background.consider(9_700);
    const branch = h.store.getBranch();
    h.store.branch(branch[branch.length - 3]!.id);
    h.background.leafMoved();
    assert.equal(h.background.pending, undefined);
    release();
    assert.equal(await h.background.take(10_100), undefined);
  } finally {
    release();
    await h.done();
  }
});

test('a failed background summary is silent (logged) and leaves the threshold to the normal path', async () => {
  const h = await setup(() => ({ error: 'rate limited' }));
  try {
    const before = await h.bytes();
    h.background.consider(9_700);
    assert.equal(await h.background.pending, undefined);
    assert.equal(await h.background.take(10_100), undefined, 'nothing to commit: the normal path runs');
    assert.ok(h.logs.some((l) => l.startsWith('background compaction failed')), h.logs.join('\n'));
    assert.equal(await h.bytes(), before, 'the file is untouched');
    h.background.consider(9_800);
    assert.equal(h.background.pending, undefined, 'not retried in the background until the next compaction');
  } finally {
    await h.done();
  }
});

test('a valid summary still being written is awaited at the threshold instead of starting over', async () => {
  const { release, script } = gated();
  const h = await setup(script);
  try {
    h.background.consider(9_700);
    const taken = h.background.take(10_100);
    release();
    const prepared = await taken;
    assert.ok(prepared);
    const outcome = await h.runner.run({ reason: 'threshold', prepared });
    assert.equal(outcome.status, 'compacted');
  } finally {
    release();
    await h.done();
  }
});

/** Turns of `tokens` each, `ms` apart, seen by `consider` from `from` on; returns the context reached. */
function fastTurns(h: Awaited<ReturnType<typeof setup>>, from: number, tokens: number, ms: number, count: number): number {
  let context = from;
  for (let i = 0; i < count; i++) {
    h.clock.advance(ms);
    context += tokens;
    h.background.consider(context);
  }
  return context;
}

test('fast turns: the band starts as far below the threshold as the context grows while a summary is written', async () => {
  const { release, script } = gated();
  const h = await setup(script);
  try {
    // 700 tokens per 200 ms turn (3,500 tokens/s): with the default 20 s summary time the band is wider
    // than the static one ([9600, 10000]); the summary starts long before the threshold.
    fastTurns(h, 4_300, 700, 200, 3);
    assert.equal(h.background.pending, undefined, 'two turns of growth are not a rate yet; 6,400 is below the static band');
    fastTurns(h, 6_400, 700, 200, 1);
    assert.ok(h.background.pending, 'started at 7,100 tokens, 2,900 below the threshold');
    // It keeps less than keepRecentTokens (the growth until the threshold makes up the rest): an eighth
    // of it, the least it keeps.
    assert.ok(h.logs.some((l) => /at 7100 tokens \(keeping ~100\)/.test(l)), h.logs.join('\n'));
  } finally {
    release();
    await h.done();
  }
});

test('slow turns: the band stays at keepRecentTokens / 2 below the threshold', async () => {
  const h = await setup();
  try {
    fastTurns(h, 8_000, 300, 60_000, 5); // 5 tokens/s: 100 s of summary time is 500 tokens
    assert.equal(h.background.pending, undefined, 'at 9,500 (below 9,600) nothing starts');
    fastTurns(h, 9_500, 150, 60_000, 1);
    assert.ok(h.background.pending, 'at 9,650 it starts');
  } finally {
    await h.done();
  }
});

test('a summary started too early (and that cannot be bridged) is written once more near the threshold; the first is the fallback', async () => {
  const h = await setup(summary, { unbridgeable: true });
  const jobs = () => h.logs.filter((l) => l.includes('background compaction: summarizing')).length;
  try {
    fastTurns(h, 4_300, 700, 200, 4); // in the default-time band at 7,100
    const first = h.background.pending;
    assert.ok(first);
    h.clock.advance(10); // the summary took 10 ms: now known
    await first;
    assert.equal(jobs(), 1, h.logs.join('\n'));
    // ~3,400 tokens/s × 10 ms × 1.25 + 700 per turn → the band starts ~743 below the threshold, at ~9,257.
    // The ready summary would be committed there keeping 100 + 2,800 = 2,900 > 880 (keepRecentTokens +
    // 10%), one written now keeps 800: written again, once in the band (9,900).
    fastTurns(h, 7_100, 700, 200, 3);
    assert.equal(jobs(), 1, 'below the band as measured now: nothing more');
    fastTurns(h, 9_200, 700, 200, 1);
    assert.ok(h.logs.some((l) => l.includes('would keep too much; writing it again at 9900')), h.logs.join('\n'));
    await h.background.pending;
    assert.equal(jobs(), 2, 'one more summary, no more');
    h.background.consider(9_950);
    assert.equal(jobs(), 2, 'not rewritten twice');
    const prepared = await h.background.take(10_300);
    assert.ok(prepared, 'the second summary is committed');
    assert.ok(h.logs.some((l) => l.includes('committing the summary written at 9900')), h.logs.join('\n'));
  } finally {
    await h.done();
  }
});

test('a summary that can be bridged is not written again: the bridge absorbs what came since, a second summary would only be billed (issue 25, measured in bench/background-compaction.mjs)', async () => {
  const h = await setup();
  const jobs = () => h.logs.filter((l) => l.includes('background compaction: summarizing')).length;
  try {
    fastTurns(h, 4_300, 700, 200, 4);
    h.clock.advance(10);
    await h.background.pending;
    fastTurns(h, 7_100, 700, 200, 4); // where an unbridgeable one is written again (the test above)
    assert.equal(jobs(), 1, h.logs.join('\n'));
  } finally {
    await h.done();
  }
});

test('the fallback is committed at the threshold when the rewritten summary is not ready', async () => {
  let hold = false;
  const held: (() => void)[] = [];
  const h = await setup(
    async (request) => {
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return summary(request);
    },
    { unbridgeable: true },
  );
  try {
    fastTurns(h, 4_300, 700, 200, 4);
    h.clock.advance(10);
    await h.background.pending;
    hold = true;
    fastTurns(h, 7_100, 700, 200, 4); // rewriting in the band, held
    assert.ok(h.logs.some((l) => l.includes('writing it again at 9900')), h.logs.join('\n'));
    const prepared = await h.background.take(10_300);
    assert.ok(prepared, 'no wait: the ready fallback');
    assert.ok(h.logs.some((l) => l.includes('committing the summary written at 7100') && l.includes('not ready')), h.logs.join('\n'));
  } finally {
    hold = false;
    for (const release of held) release();
    await h.done();
  }
});

test('no rewrite that cannot be ready before the threshold: the ready summary is committed there and nothing more is billed (issue 25, fast turns)', async () => {
  const { release, script } = gated();
  const h = await setup(script, { unbridgeable: true });
  const jobs = () => h.logs.filter((l) => l.includes('background compaction: summarizing')).length;
  try {
    fastTurns(h, 4_300, 700, 200, 4); // started at 7,100 keeping ~100 (the default summary time: a wide band)
    const first = h.background.pending;
    assert.ok(first);
    fastTurns(h, 7_100, 700, 200, 3); // 9,200: the summary is still being written, 600 ms after it started
    release();
    await first;
    // Measured: 3,500 tokens/s × 600 ms = 2,100 tokens while a summary is written. The ready one would
    // keep 2,900 at 9,900, one written now 2,200 — but it would be ready at ~12,000, past the threshold
    // (10,000), where the ready one is committed without waiting for it: the rewrite is only billed.
    h.clock.advance(200);
    h.background.consider(9_900);
    assert.equal(jobs(), 1, h.logs.join('\n'));
    const calls = h.provider.requests.length;
    const prepared = await h.background.take(10_300);
    assert.ok(prepared, 'the ready summary is committed');
    assert.equal(h.provider.requests.length, calls, 'without a model call');
    assert.ok(h.logs.some((l) => l.includes('committing the summary written at 7100')), h.logs.join('\n'));
  } finally {
    release();
    await h.done();
  }
});

test('a ready summary is committed below the threshold once its kept part has grown to keepRecentTokens (issue 25: the context it leaves is the foreground one)', async () => {
  const h = await setup();
  try {
    fastTurns(h, 4_300, 700, 200, 4); // started at 7,100 keeping ~100 (the default summary time: a wide band)
    const first = h.background.pending;
    assert.ok(first);
    assert.equal(h.background.commitDue(7_100), false, 'not ready yet');
    h.clock.advance(1_000);
    await first;
    assert.equal(h.background.commitDue(7_100), false, 'ready, but it would keep 100 tokens: a smaller context than the foreground path leaves, and an early compaction');
    assert.equal(h.background.commitDue(7_400), false, 'keeps 400: more than half a turn (350) short of 800');
    assert.equal(h.background.commitDue(7_500), true, 'keeps 500, within half a turn of keepRecentTokens, in the band as measured now (from 6,748)');
    const calls = h.provider.requests.length;
    const prepared = await h.background.take(7_500);
    assert.ok(prepared, 'committed');
    assert.equal(h.provider.requests.length, calls, 'without a model call');
  } finally {
    await h.done();
  }
});

test('a background commit never cuts inside a tool call/result pair, even keeping less than keepRecentTokens', async () => {
  const h = await setup();
  try {
    // Tool turns at the end: the small keep of a summary started in the band (800 - 300 = 500 tokens)
    // ends inside the last pair's 600-token result.
    for (let i = 0; i < 3; i++) {
      await h.store.appendMessage({
        role: 'assistant', content: [{ type: 'toolCall', id: `call-${i}`, name: 'read', arguments: { path: `f${i}.ts` } }],
        api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'toolUse', timestamp: Date.now(),
      });
      await h.store.appendMessage({ role: 'toolResult', toolCallId: `call-${i}`, toolName: 'read', content: [{ type: 'text', text: `RESULT-${i} ${chars(600)}` }], isError: false, timestamp: Date.now() });
    }
    h.background.consider(9_700);
    await h.background.pending;
    await turn(h.store, 6);
    const prepared = await h.background.take(10_100);
    assert.ok(prepared, h.logs.join('\n'));
    assert.equal((await h.runner.run({ reason: 'threshold', prepared })).status, 'compacted');
    const branch = h.store.getBranch();
    const entry = branch.at(-1) as { type: string; firstKeptEntryId: string };
    assert.equal(entry.type, 'compaction');
    const kept = branch.slice(branch.findIndex((e) => e.id === entry.firstKeptEntryId), -1);
    const messages = kept.flatMap((e) => (e.type === 'message' ? [e.message as { role: string; toolCallId?: string; content: unknown }] : []));
    assert.ok(messages.length > 0, 'something is kept');
    assert.notEqual(messages[0]!.role, 'toolResult', 'the kept part does not start with a result');
    const calls = new Set(messages.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.flatMap((c: { type: string; id?: string }) => (c.type === 'toolCall' ? [c.id] : [])) : [])));
    for (const m of messages) if (m.role === 'toolResult') assert.ok(calls.has(m.toolCallId), `the call of ${m.toolCallId} is kept with its result`);
  } finally {
    await h.done();
  }
});

test('what a background summary keeps: keepRecentTokens less the growth expected before its commit, at least an eighth', () => {
  assert.equal(keepBeforeGrowth(8_000, 2_800), 5_200, 'slow growth: most of the window is kept by the summary itself');
  assert.equal(keepBeforeGrowth(8_000, 8_400), 1_000, 'growth beyond the window: an eighth');
  assert.equal(keepBeforeGrowth(8_000, -5), 8_000, 'no growth');
});
