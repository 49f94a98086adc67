import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { AgentEvent } from '../../../src/agent/events';
import { OVERFLOW_GIVE_UP_MESSAGE, autoContinuePrompt } from '../../../src/compaction';
import type { AssistantMessage } from '../../../src/core/messages';
import type { FakeRequest } from '../../fake-llm/server.mjs';
import { fileEntries, harness, ManualClock, pathEntries, requestText, summaryText, waitFor, type Harness, type HarnessOptions } from './session-helpers';

const SUMMARY_SYSTEM = 'You write context checkpoints';

/** A summary request: the transcript form (the summarizer's system prompt) or the continuation of the conversation. */
function isSummaryRequest(request: FakeRequest): boolean {
  const body = JSON.stringify(request.body);
  return body.includes(SUMMARY_SYSTEM) || body.includes('<kept-start>');
}

function compactionEvents(events: AgentEvent[]) {
  return events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end') as Extract<AgentEvent, { type: 'compaction_start' | 'compaction_end' }>[];
}

/** A session with `turns` finished exchanges of ~150 tokens each, so there is history to summarize. */
async function withHistory(options: HarnessOptions = {}, turns = 3): Promise<Harness> {
  const h = await harness({ ...options, settings: { keepRecentTokens: 60, reserveTokens: 1000, ...options.settings } });
  for (let i = 0; i < turns; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(40)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  h.fake.requests.length = 0;
  h.events.length = 0;
  return h;
}

/** A last prompt bigger than keepRecentTokens: the cut lands on it, so no split turn (exactly two summary requests). */
const FINAL = `final question ${'lorem '.repeat(300)}`;

function enqueueSummary(h: Harness, tag: string): void {
  h.fake.enqueue({ text: summaryText(tag) }, { text: `We worked on ${tag}.` });
}

test('overflow: the error leaves the live context, the session is compacted, the turn is retried once and succeeds', async () => {
  const h = await withHistory();
  h.fake.enqueue({ overflow: 'openai' });
  enqueueSummary(h, 'OVERFLOW-SUMMARY');
  h.fake.enqueue({ text: 'retried fine' });
  await h.agent.prompt(FINAL);

  const requests = h.llmRequests();
  assert.equal(requests.length, 4);
  assert.ok(!isSummaryRequest(requests[0]!), 'first the turn that overflowed');
  assert.ok(isSummaryRequest(requests[1]!), 'then the summarization request');
  assert.match(requestText(requests[1]!), /QUESTION-0/);
  assert.ok(isSummaryRequest(requests[2]!), 'then the short summary');
  const retried = requestText(requests[3]!);
  assert.ok(!isSummaryRequest(requests[3]!));
  assert.match(retried, /OVERFLOW-SUMMARY goal/);
  assert.match(retried, /final question/);
  assert.doesNotMatch(retried, /maximum context length/);
  assert.doesNotMatch(retried, /QUESTION-0/);

  // The error stays in the file, on a side branch; the live path goes on from the user message.
  const entries = await fileEntries(h.store);
  assert.deepEqual(entries.slice(-4), ['user', 'assistant:error', 'compaction', 'assistant:stop']);
  assert.deepEqual(pathEntries(h.store).slice(-3), ['user', 'compaction', 'assistant:stop']);
  const compactions = compactionEvents(h.events);
  assert.deepEqual(compactions.map((e) => [e.type, e.reason]), [['compaction_start', 'overflow'], ['compaction_end', 'overflow']]);
  const end = compactions[1] as Extract<AgentEvent, { type: 'compaction_end' }>;
  assert.equal(end.willRetry, true);
  assert.equal(end.outcome.status, 'compacted');
  assert.ok(!h.events.some((e) => e.type === 'error'));
});

test('overflow twice without progress stops with a clear message and never loops (Anthropic)', async () => {
  const h = await withHistory({ api: 'anthropic' });
  h.fake.enqueue({ overflow: 'anthropic' });
  enqueueSummary(h, 'S1');
  h.fake.enqueue({ overflow: 'anthropic' });
  h.fake.enqueue({ text: 'must never be requested' });
  await h.agent.prompt(FINAL);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(h.llmRequests().length, 4);
  assert.deepEqual(h.fake.queue.map((t) => t.text), ['must never be requested']);
  const errors = h.events.filter((e) => e.type === 'error').map((e) => (e as { message: string }).message);
  assert.equal(errors.length, 1);
  assert.ok(errors[0]!.startsWith(OVERFLOW_GIVE_UP_MESSAGE), errors[0]);
  assert.match(errors[0]!, /prompt is too long/, 'the provider\'s words follow');
  assert.equal(compactionEvents(h.events).filter((e) => e.type === 'compaction_start').length, 1);
  assert.deepEqual((await fileEntries(h.store)).slice(-4), ['user', 'assistant:error', 'compaction', 'assistant:error']);
  assert.equal(h.agent.busy, false);
});

test('incomplete output (length stop): compacted with reason "length" and retried once', async () => {
  const h = await withHistory();
  h.fake.enqueue({ text: 'PARTIAL-REPLY cut here', stop: 'length' });
  enqueueSummary(h, 'LEN');
  h.fake.enqueue({ text: 'complete reply' });
  await h.agent.prompt(FINAL);
  const requests = h.llmRequests();
  assert.equal(requests.length, 4);
  assert.doesNotMatch(requestText(requests[3]!), /PARTIAL-REPLY/);
  assert.match(requestText(requests[3]!), /LEN goal/);
  assert.deepEqual((await fileEntries(h.store)).slice(-4), ['user', 'assistant:length', 'compaction', 'assistant:stop']);
  assert.deepEqual(compactionEvents(h.events).map((e) => e.reason), ['length', 'length']);
});

test('a normal length stop in a short session is a cut-off notice with Continue, not a failed recovery', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'PARTIAL', stop: 'length' });
  await h.agent.prompt('tiny session');
  const errors = h.events.filter((e) => e.type === 'error').map((e) => (e as { message: string }).message);
  assert.deepEqual(errors, []);
  const cutOff = h.events.filter((e) => e.type === 'cut_off') as Extract<AgentEvent, { type: 'cut_off' }>[];
  assert.equal(cutOff.length, 1);
  assert.equal(cutOff[0]!.entryId, h.store.getLeafId());
  assert.deepEqual(pathEntries(h.store), ['user', 'assistant:length']);
  assert.equal(h.llmRequests().length, 1);
  // Continue: a hidden "continue" prompt after the cut-off reply, answered on the same path.
  h.fake.enqueue({ text: 'REST of the reply' });
  await h.agent.continueReply();
  assert.deepEqual(pathEntries(h.store), ['user', 'assistant:length', 'custom_message:continue', 'assistant:stop']);
  const hidden = h.store.getBranch()[2] as unknown as { display: boolean };
  assert.equal(hidden.display, false);
  assert.match(requestText(h.llmRequests()[1]!), /PARTIAL/);
});

test('threshold: after a successful turn above the threshold the session is compacted, then a hidden auto-continue runs', async () => {
  const h = await withHistory({ model: { contextWindow: 4000 } });
  h.fake.enqueue({ text: 'big reply', usage: { prompt_tokens: 3500, completion_tokens: 100, total_tokens: 3600 } });
  enqueueSummary(h, 'THRESH');
  h.fake.enqueue({ text: 'continued after compaction' });
  await h.agent.prompt(FINAL);

  const requests = h.llmRequests();
  assert.equal(requests.length, 4);
  assert.ok(isSummaryRequest(requests[1]!) && isSummaryRequest(requests[2]!));
  const cont = requests[3]!;
  assert.match(requestText(cont), /THRESH goal/);
  assert.ok(requestText(cont).includes(JSON.stringify(autoContinuePrompt()).slice(1, -1)), 'the continue prompt was sent');
  assert.deepEqual((await fileEntries(h.store)).slice(-5), ['user', 'assistant:stop', 'compaction', 'custom_message:auto-continue', 'assistant:stop']);
  const hidden = h.store.getBranch().find((e) => e.type === 'custom_message') as unknown as { display: boolean };
  assert.equal(hidden.display, false);
  assert.deepEqual(compactionEvents(h.events).map((e) => e.reason), ['threshold', 'threshold']);
  const end = compactionEvents(h.events)[1] as Extract<AgentEvent, { type: 'compaction_end' }>;
  assert.equal(end.willRetry, false);
});

test('threshold with autoContinue off compacts and stops; a queued message is delivered after the compaction', async () => {
  const h = await withHistory({ model: { contextWindow: 4000 }, settings: { autoContinue: false } });
  h.fake.enqueue({ text: 'big reply', usage: { prompt_tokens: 3500, completion_tokens: 100, total_tokens: 3600 }, delayMs: 10 });
  enqueueSummary(h, 'T2');
  h.fake.enqueue({ text: 'answer to the queued message' });
  const run = h.agent.prompt(FINAL);
  await waitFor(h.events, (e) => e.type === 'message_start' && e.role === 'assistant');
  await h.agent.prompt('typed meanwhile');
  await run;
  assert.deepEqual((await fileEntries(h.store)).slice(-5), ['user', 'assistant:stop', 'compaction', 'user', 'assistant:stop']);
  assert.match(requestText(h.llmRequests()[3]!), /typed meanwhile/);
  assert.ok(!requestText(h.llmRequests()[3]!).includes('The history above was just compacted'));
});

test('manual compact aborts the running turn first, then compacts with the focus instructions', async () => {
  const h = await withHistory();
  h.fake.enqueue({ text: 'a long reply that hangs', chunkSize: 4, hangAfterChunks: 3 });
  enqueueSummary(h, 'MANUAL');
  const run = h.agent.prompt(FINAL);
  await waitFor(h.events, (e) => e.type === 'message_delta');
  const outcome = await h.agent.compact('keep the API notes');
  await run;
  assert.equal(outcome.status, 'compacted');
  assert.deepEqual((await fileEntries(h.store)).slice(-3), ['user', 'assistant:aborted', 'compaction']);
  const summaryRequest = h.llmRequests()[1]!;
  assert.ok(isSummaryRequest(summaryRequest));
  assert.match(requestText(summaryRequest), /keep the API notes/);
  assert.deepEqual(compactionEvents(h.events).map((e) => e.reason), ['manual', 'manual']);
  await assert.rejects(h.agent.compact(), { message: 'Already compacted' });
});

test('manual compact on a tiny session: "Nothing to compact (session too small)"', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'hi' });
  await h.agent.prompt('hello');
  await assert.rejects(h.agent.compact(), { message: 'Nothing to compact (session too small)' });
  assert.equal(h.llmRequests().length, 1);
});

test('usage older than the latest compaction never re-triggers threshold or idle compaction', async () => {
  const h = await withHistory({ model: { contextWindow: 4000 }, settings: { enabled: false, idleEnabled: true, idleThresholdTokens: 100 } });
  h.fake.enqueue({ text: 'huge usage reply', usage: { prompt_tokens: 3700, completion_tokens: 100, total_tokens: 3800 } });
  await h.agent.prompt('make it big');
  enqueueSummary(h, 'OLD');
  await h.agent.compact();
  h.settings.enabled = true;
  // The huge reply is kept verbatim after the compaction, so it is in the context being measured.
  const kept = h.store.buildContext().messages.find((m) => m.role === 'assistant' && (m as AssistantMessage).usage.input === 3700);
  assert.ok(kept, 'the stale-usage reply is in the kept part');
  assert.equal(h.agent.usage().contextTokens, null);
  assert.equal(await h.agent.runIdleCompaction(), undefined);

  h.fake.requests.length = 0;
  h.events.length = 0;
  h.fake.enqueue({ text: 'small reply' });
  await h.agent.prompt('next question');
  assert.equal(h.llmRequests().length, 1, 'no compaction before or after the prompt');
  assert.equal(compactionEvents(h.events).length, 0);
  assert.ok((h.agent.usage().contextTokens ?? 0) > 0);
});

test('idle compaction after the (clamped) timeout with an injected clock; typing restarts the wait; no auto-continue', async () => {
  const clock = new ManualClock();
  const h = await withHistory({ clock, settings: { idleEnabled: true, idleThresholdTokens: 100, idleTimeoutSeconds: 5 } });
  assert.equal(clock.pending, 1, 'armed after the last turn');
  // Whether the cut splits the last turn decides how many summary calls run: answer them all by rule.
  h.fake.addRule({ when: { systemIncludes: SUMMARY_SYSTEM }, then: { text: summaryText('IDLE') } });
  clock.advance(59_000);
  assert.equal(compactionEvents(h.events).length, 0, 'the timeout is clamped to 60 s');
  h.agent.notifyUserTyping();
  clock.advance(59_000);
  assert.equal(compactionEvents(h.events).length, 0, 'typing restarted the wait');
  clock.advance(1_000);
  await waitFor(h.events, (e) => e.type === 'compaction_end');
  await h.agent.whenIdle();
  assert.deepEqual(compactionEvents(h.events).map((e) => e.reason), ['idle', 'idle']);
  assert.equal((compactionEvents(h.events)[1] as Extract<AgentEvent, { type: 'compaction_end' }>).outcome.status, 'compacted');
  assert.ok(h.llmRequests().length >= 2);
  assert.ok(h.llmRequests().every(isSummaryRequest), 'summary requests only: no continue turn');
  assert.equal((await fileEntries(h.store)).at(-1), 'compaction');
  // After the compaction only stale usage is left: the re-armed timer finds nothing due.
  clock.advance(60_000);
  await h.agent.whenIdle();
  assert.equal(compactionEvents(h.events).length, 2);
});

test('idle compaction does not run while the agent works', async () => {
  const clock = new ManualClock();
  const h = await withHistory({ clock, settings: { idleEnabled: true, idleThresholdTokens: 100 } });
  h.fake.enqueue({ text: 'slow', hangAfterChunks: 1 });
  const run = h.agent.prompt('work');
  await waitFor(h.events, (e) => e.type === 'message_start' && e.role === 'assistant');
  assert.equal(clock.pending, 0, 'the idle timer is off while busy');
  assert.equal(await h.agent.runIdleCompaction(), undefined);
  await h.agent.stop();
  await run;
});

test('strategy "handoff": threshold maintenance moves the conversation to a new session seeded with the document', async () => {
  const h = await withHistory({ model: { contextWindow: 4000 }, settings: { strategy: 'handoff' } });
  const oldFile = h.store.file;
  h.fake.enqueue({ text: 'big reply', usage: { prompt_tokens: 3500, completion_tokens: 100, total_tokens: 3600 } });
  h.fake.enqueue({ text: '# Handoff\nWe were working on QUESTION-2. Next: finish it.' });
  h.fake.enqueue({ text: 'picking up from the handoff' });
  await h.agent.prompt(FINAL);
  const replaced = h.events.find((e) => e.type === 'session_replaced');
  assert.ok(replaced && replaced.type === 'session_replaced' && replaced.previousFile === oldFile);
  assert.notEqual(h.agent.store.file, oldFile);
  assert.equal(h.agent.store.header.parentSession, oldFile);
  assert.deepEqual(await fileEntries(h.agent.store), ['model_change', 'custom_message:handoff', 'assistant:stop']);
  const last = h.llmRequests().at(-1)!;
  assert.match(requestText(last), /We were working on QUESTION-2/);
  assert.doesNotMatch(requestText(last), /ANSWER-0/);
  // The old session is untouched by the handoff: no compaction entry was written there.
  assert.ok(!(await readFile(oldFile, 'utf8')).includes('"type":"compaction"'));
});

test('stop during a manual compaction cancels it: "Compaction cancelled" and the file is unchanged', async () => {
  const h = await withHistory();
  const before = await readFile(h.store.file, 'utf8');
  h.fake.enqueue({ text: summaryText('NEVER'), hangAfterChunks: 1 });
  const compacting = h.agent.compact();
  await waitFor(h.events, (e) => e.type === 'compaction_start');
  await waitFor(h.events, () => h.llmRequests().length >= 1);
  await h.agent.stop();
  await assert.rejects(compacting, { message: 'Compaction cancelled' });
  assert.equal(await readFile(h.store.file, 'utf8'), before);
  assert.equal(h.agent.busy, false);
});

const TPM_TOO_LARGE = 'Request too large for gpt-4o in organization org-test on tokens per min (TPM): Limit 30000, Requested 41250. The input or output tokens must be reduced in order to run successfully.';

test('issue #18: OpenAI 429 "Request too large … Limit, Requested" is compacted and retried once, never retried as a rate limit', async () => {
  const h = await withHistory();
  h.fake.enqueue({ error: { kind: 'rate_limit', message: TPM_TOO_LARGE } });
  enqueueSummary(h, 'TPM-SUMMARY');
  h.fake.enqueue({ text: 'fits now' });
  await h.agent.prompt(FINAL);
  const requests = h.llmRequests();
  assert.equal(requests.length, 4, 'the 429, two summary requests, the retried turn');
  assert.ok(isSummaryRequest(requests[1]!));
  assert.deepEqual(compactionEvents(h.events).map((e) => [e.type, e.reason]), [['compaction_start', 'overflow'], ['compaction_end', 'overflow']]);
  assert.ok(!h.events.some((e) => e.type === 'error'));
});

test('issue #18: when the request is still above the limit after compacting, the user is told which limit was hit', async () => {
  const h = await withHistory();
  h.fake.enqueue({ error: { kind: 'rate_limit', message: TPM_TOO_LARGE } });
  enqueueSummary(h, 'TPM-S1');
  h.fake.enqueue({ error: { kind: 'rate_limit', message: TPM_TOO_LARGE } });
  h.fake.enqueue({ text: 'must never be requested' });
  await h.agent.prompt(FINAL);
  assert.equal(h.llmRequests().length, 4);
  const errors = h.events.filter((e) => e.type === 'error').map((e) => (e as { message: string }).message);
  assert.equal(errors.length, 1);
  assert.ok(errors[0]!.startsWith(OVERFLOW_GIVE_UP_MESSAGE), errors[0]);
  assert.match(errors[0]!, /Limit 30000, Requested 41250/);
});
