// arbor.compaction.warnBeforeAuto: a question (compact now / later) before automatic threshold and idle
// compaction, never before overflow recovery; a "later" holds until the context grew by 5% of the window
// or any compaction ran. Real AgentSession, real store, the fake LLM server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent/events';
import type { AutoCompactionAnswer, AutoCompactionQuestion, CompactionConfirmer } from '../../../src/agent/auto-compaction-confirm';
import { CompactionDeferral, deferGrowthTokens } from '../../../src/agent/auto-compaction-confirm';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/compaction';
import type { FakeRequest } from '../../fake-llm/server.mjs';
import { fileEntries, harness, ManualClock, summaryText, waitFor, waitUntil, type Harness, type HarnessOptions } from './session-helpers';

const SUMMARY_SYSTEM = 'You write context checkpoints';

/** A summary request: the transcript form (the summarizer's system prompt) or the continuation of the conversation. */
function isSummaryRequest(request: FakeRequest): boolean {
  const body = JSON.stringify(request.body);
  return body.includes(SUMMARY_SYSTEM) || body.includes('<kept-start>');
}

/** Answers from a script (then `fallback`); 'hang' waits until the question is aborted. */
class ScriptedConfirmer implements CompactionConfirmer {
  readonly asked: AutoCompactionQuestion[] = [];
  aborted = 0;
  constructor(
    readonly answers: (AutoCompactionAnswer | 'hang')[] = [],
    readonly fallback: AutoCompactionAnswer = 'compact',
  ) {}

  confirm(question: AutoCompactionQuestion, signal: AbortSignal): Promise<AutoCompactionAnswer> {
    this.asked.push(question);
    const answer = this.answers.shift() ?? this.fallback;
    if (answer !== 'hang') return Promise.resolve(answer);
    return new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        this.aborted++;
        resolve('defer');
      }, { once: true });
    });
  }
}

function compactions(events: AgentEvent[]) {
  return events.filter((e) => e.type === 'compaction_end') as Extract<AgentEvent, { type: 'compaction_end' }>[];
}

function deferrals(events: AgentEvent[]) {
  return events.filter((e) => e.type === 'compaction_deferred') as Extract<AgentEvent, { type: 'compaction_deferred' }>[];
}

/** Window 4000, reserve 1000: threshold 3000; the ask-again margin is 5% of 4000 = 200 tokens. */
async function withHistory(confirmer: CompactionConfirmer, options: HarnessOptions = {}, turns = 3): Promise<Harness> {
  const settings: CompactionSettings = {
    ...DEFAULT_COMPACTION_SETTINGS,
    remoteEnabled: false,
    keepRecentTokens: 60,
    reserveTokens: 1000,
    warnBeforeAuto: true,
    autoContinue: false,
    ...options.settings,
  };
  const h = await harness({
    model: { contextWindow: 4000 },
    ...options,
    deps: { ...options.deps, compaction: { settings: () => settings, retry: { baseDelayMs: 1, sleep: async () => {} }, confirmer } },
  });
  for (let i = 0; i < turns; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(40)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  h.fake.requests.length = 0;
  h.events.length = 0;
  // Summaries (one or two calls, split turn or not) are answered by rule; turns come from the queue.
  h.fake.addRule({ when: { systemIncludes: SUMMARY_SYSTEM }, then: { text: summaryText('AUTO') } });
  return h;
}

function usage(total: number) {
  return { prompt_tokens: total - 100, completion_tokens: 100, total_tokens: total };
}

test('CompactionDeferral: covers until the context grew by 5% of the window; ends below the threshold or on clear', () => {
  const deferral = new CompactionDeferral();
  assert.equal(deferral.covers(10), false);
  assert.equal(deferGrowthTokens(4000), 200);
  assert.equal(deferral.defer({ reason: 'threshold', contextTokens: 3600, threshold: 3000, window: 4000 }), 3800);
  assert.equal(deferral.covers(3600), true);
  assert.equal(deferral.covers(3799), true);
  assert.equal(deferral.covers(3800), false);
  deferral.observeBelowThreshold(3100);
  assert.equal(deferral.covers(3700), true, 'still above the threshold: the deferral holds');
  deferral.observeBelowThreshold(2900);
  assert.equal(deferral.covers(3700), false, 'back under the threshold: the deferral is over');
  deferral.defer({ reason: 'idle', contextTokens: 500, threshold: 400, window: 1000 });
  deferral.clear();
  assert.equal(deferral.covers(500), false);
});

test('threshold + warn: asked; "later" → no compaction; not asked again below the margin; asked again above it', async () => {
  const confirmer = new ScriptedConfirmer(['defer', 'compact']);
  const h = await withHistory(confirmer);

  h.fake.enqueue({ text: 'big reply', usage: usage(3600) });
  await h.agent.prompt('first big turn');
  assert.deepEqual(confirmer.asked, [{ reason: 'threshold', contextTokens: 3600, threshold: 3000, window: 4000 }]);
  assert.equal(compactions(h.events).length, 0);
  assert.ok(!(await fileEntries(h.store)).includes('compaction'), 'no compaction entry');
  assert.equal(h.llmRequests().length, 1, 'no summary request');
  const [deferred] = deferrals(h.events);
  assert.deepEqual(
    deferred && { reason: deferred.reason, contextTokens: deferred.contextTokens, threshold: deferred.threshold, askAgainAt: deferred.askAgainAt },
    { reason: 'threshold', contextTokens: 3600, threshold: 3000, askAgainAt: 3800 },
  );

  // Next turn grows the context by less than the margin: neither the before-prompt nor the after-run check asks.
  h.fake.enqueue({ text: 'a bit bigger', usage: usage(3750) });
  await h.agent.prompt('second turn');
  assert.equal(confirmer.asked.length, 1, 'not asked again below 3800');
  assert.equal(compactions(h.events).length, 0);
  assert.equal(h.llmRequests().length, 2);

  // Above the margin: asked again; "compact now" compacts.
  h.fake.enqueue({ text: 'much bigger', usage: usage(3850) });
  await h.agent.prompt('third turn');
  assert.equal(confirmer.asked.length, 2);
  assert.equal(confirmer.asked[1]!.contextTokens, 3850);
  const ends = compactions(h.events);
  assert.deepEqual(ends.map((e) => [e.reason, e.outcome.status]), [['threshold', 'compacted']]);
  assert.equal((await fileEntries(h.store)).at(-1), 'compaction');
  assert.equal(deferrals(h.events).length, 1);
});

test('threshold + warn: "compact now" compacts at once, then auto-continue runs as without the setting', async () => {
  const confirmer = new ScriptedConfirmer(['compact']);
  const h = await withHistory(confirmer, { settings: { autoContinue: true } });
  h.fake.enqueue({ text: 'big reply', usage: usage(3600) });
  h.fake.enqueue({ text: 'continued after compaction' });
  await h.agent.prompt('big turn');
  assert.equal(confirmer.asked.length, 1);
  assert.deepEqual(compactions(h.events).map((e) => [e.reason, e.outcome.status]), [['threshold', 'compacted']]);
  const entries = await fileEntries(h.store);
  assert.deepEqual(entries.slice(-4), ['assistant:stop', 'compaction', 'custom_message:auto-continue', 'assistant:stop']);
  assert.equal(deferrals(h.events).length, 0);
});

test('warn off: the confirmer is never asked and threshold compaction runs', async () => {
  const confirmer = new ScriptedConfirmer(['defer']);
  const h = await withHistory(confirmer, { settings: { warnBeforeAuto: false } });
  h.fake.enqueue({ text: 'big reply', usage: usage(3600) });
  await h.agent.prompt('big turn');
  assert.equal(confirmer.asked.length, 0);
  assert.deepEqual(compactions(h.events).map((e) => e.reason), ['threshold']);
});

test('a manual compaction ends the deferral: the next crossing asks again even below the margin', async () => {
  const confirmer = new ScriptedConfirmer(['defer', 'defer']);
  const h = await withHistory(confirmer);
  h.fake.enqueue({ text: 'big reply', usage: usage(3600) });
  await h.agent.prompt('big turn');
  assert.equal(confirmer.asked.length, 1);
  const outcome = await h.agent.compact();
  assert.equal(outcome.status, 'compacted');
  h.fake.enqueue({ text: 'big again', usage: usage(3650) });
  await h.agent.prompt('after the manual compaction');
  assert.equal(confirmer.asked.length, 2, 'asked again at 3650 < 3800');
  assert.deepEqual(compactions(h.events).map((e) => e.reason), ['manual']);
});

test('overflow with warn on: no question, recovery compacts and retries', async () => {
  const confirmer = new ScriptedConfirmer(['defer'], 'defer');
  const h = await withHistory(confirmer, { model: { contextWindow: 128000 } });
  h.fake.enqueue({ overflow: 'openai' });
  h.fake.enqueue({ text: 'retried fine' });
  await h.agent.prompt(`final question ${'lorem '.repeat(300)}`);
  assert.equal(confirmer.asked.length, 0, 'recovery never asks');
  assert.deepEqual(compactions(h.events).map((e) => [e.reason, e.outcome.status]), [['overflow', 'compacted']]);
  assert.deepEqual((await fileEntries(h.store)).slice(-4), ['user', 'assistant:error', 'compaction', 'assistant:stop']);
  assert.ok(!h.events.some((e) => e.type === 'error'));
});

test('stop while the threshold question is open: nothing is compacted or remembered, the agent is idle', async () => {
  const confirmer = new ScriptedConfirmer(['hang', 'compact']);
  const h = await withHistory(confirmer);
  h.fake.enqueue({ text: 'big reply', usage: usage(3600) });
  const run = h.agent.prompt('big turn');
  await waitUntil(() => confirmer.asked.length === 1, 5000, 'the question');
  assert.equal(h.agent.busy, true, 'the turn waits for the answer');
  await h.agent.stop();
  await run;
  assert.equal(confirmer.aborted, 1);
  assert.equal(h.agent.busy, false);
  assert.equal(compactions(h.events).length, 0);
  assert.equal(deferrals(h.events).length, 0, 'an aborted question is no "later"');
  // Not remembered: the next prompt's before-check asks again at the same size.
  h.fake.enqueue({ text: 'small' });
  await h.agent.prompt('next');
  assert.equal(confirmer.asked.length, 2);
  assert.deepEqual(compactions(h.events).map((e) => e.reason), ['threshold']);
});

test('idle + warn: asked with the idle threshold; "later" skips and is remembered; "compact now" compacts', async () => {
  const clock = new ManualClock();
  const confirmer = new ScriptedConfirmer(['defer', 'compact']);
  const h = await withHistory(confirmer, {
    clock,
    model: { contextWindow: 128000 },
    settings: { idleEnabled: true, idleThresholdTokens: 100, idleTimeoutSeconds: 60 },
  });
  assert.equal(clock.pending, 1, 'armed after the last turn');
  clock.advance(60_000);
  await waitUntil(() => confirmer.asked.length === 1, 5000, 'the idle question');
  await waitFor(h.events, (e) => e.type === 'compaction_deferred');
  const question = confirmer.asked[0]!;
  assert.equal(question.reason, 'idle');
  assert.equal(question.threshold, 100);
  assert.equal(question.window, 128000);
  assert.ok(question.contextTokens >= 100);
  assert.equal(compactions(h.events).length, 0);
  assert.equal(h.llmRequests().length, 0);

  // Deferred: a second idle check at the same size does not ask.
  assert.equal(await h.agent.runIdleCompaction(), undefined);
  assert.equal(confirmer.asked.length, 1);

  // After a manual "compact now" elsewhere the deferral is over; here: grow past the margin with a turn.
  h.fake.enqueue({ text: 'grown', usage: { prompt_tokens: question.contextTokens + deferGrowthTokens(128000), completion_tokens: 10, total_tokens: question.contextTokens + deferGrowthTokens(128000) + 10 } });
  await h.agent.prompt('one more turn');
  clock.advance(60_000);
  await waitUntil(() => confirmer.asked.length === 2, 5000, 'the second idle question');
  await waitFor(h.events, (e) => e.type === 'compaction_end');
  await h.agent.whenIdle();
  assert.deepEqual(compactions(h.events).map((e) => [e.reason, e.outcome.status]), [['idle', 'compacted']]);
  assert.equal((await fileEntries(h.store)).at(-1), 'compaction');
});

test('idle + warn: a new turn while the idle question is open aborts it; nothing compacted, nothing remembered', async () => {
  const clock = new ManualClock();
  const confirmer = new ScriptedConfirmer(['hang']);
  const h = await withHistory(confirmer, {
    clock,
    model: { contextWindow: 128000 },
    settings: { idleEnabled: true, idleThresholdTokens: 100, idleTimeoutSeconds: 60 },
  });
  clock.advance(60_000);
  await waitUntil(() => confirmer.asked.length === 1, 5000, 'the idle question');
  h.fake.enqueue({ text: 'answer while the question was open' });
  await h.agent.prompt('back at the keyboard');
  await h.agent.whenIdle();
  assert.equal(confirmer.aborted, 1);
  assert.equal(compactions(h.events).length, 0);
  assert.equal(deferrals(h.events).length, 0);
  assert.equal((await fileEntries(h.store)).at(-1), 'assistant:stop');
  assert.ok(h.llmRequests().every((r) => !isSummaryRequest(r)));
});
