// Context promotion (docs/pi-compatibility.md "When compaction runs"): on overflow, an incomplete reply or the threshold, a configured model
// with a larger window that holds the context takes over and the turn goes on without compacting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/compaction';
import { choosePromotion, promotionNotice } from '../../../src/agent/context-promotion';
import type { ModelInfo } from '../../../src/llm/types';
import { openaiModel } from '../llm/helpers';
import { fileEntries, harness, pathEntries, summaryText, type Harness } from './session-helpers';

const SMALL = 4000;

async function promoting(promotion: Partial<ModelInfo> | undefined, settings: Partial<CompactionSettings> = {}): Promise<{ h: Harness; big: ModelInfo | undefined }> {
  let big: ModelInfo | undefined;
  const all: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, reserveTokens: 500, keepRecentTokens: 60, ...settings };
  const h = await harness({
    model: { contextWindow: SMALL },
    deps: {
      compaction: {
        settings: () => all,
        retry: { baseDelayMs: 1, sleep: async () => {} },
        promotionModel: () => big,
      },
    },
  });
  if (promotion) big = openaiModel(h.fake.openaiBaseUrl, { id: 'fake-gpt-big', name: 'Fake GPT Big', contextWindow: 100_000, ...promotion });
  return { h, big };
}

function modelsRequested(h: Harness): string[] {
  return h.llmRequests().map((r) => r.body.model as string);
}

test('overflow: switches to the larger configured model and retries without compacting', async () => {
  const { h, big } = await promoting({});
  h.fake.enqueue({ overflow: 'openai' }, { text: 'answered by the big model' });
  await h.agent.prompt('a long question');
  assert.deepEqual(modelsRequested(h), ['fake-gpt', 'fake-gpt-big']);
  assert.deepEqual((await fileEntries(h.store)).slice(-4), ['user', 'assistant:error', 'model_change', 'assistant:stop']);
  assert.deepEqual(pathEntries(h.store).slice(-3), ['user', 'model_change', 'assistant:stop']);
  assert.equal(h.agent.model.id, big!.id);
  assert.ok(!h.events.some((e) => e.type === 'compaction_start'), 'no compaction');
  assert.ok(!h.events.some((e) => e.type === 'error'));
  assert.ok(h.events.some((e) => e.type === 'model_changed' && e.model.id === 'fake-gpt-big' && e.entryId));
  assert.ok(h.events.some((e) => e.type === 'notice' && e.message === 'Switched to Fake GPT Big (larger context) instead of compacting.'));
  assert.equal(h.store.buildContext().model?.modelId, 'fake-gpt-big');
  // The retried request does not carry the failed reply.
  assert.doesNotMatch(JSON.stringify(h.llmRequests()[1]!.body.messages), /maximum context length/);
});

test('incomplete (length) reply: promoted and retried once', async () => {
  const { h } = await promoting({});
  h.fake.enqueue({ text: 'cut off half way', stop: 'length' }, { text: 'complete answer' });
  await h.agent.prompt('question');
  assert.deepEqual(modelsRequested(h), ['fake-gpt', 'fake-gpt-big']);
  assert.deepEqual(pathEntries(h.store).slice(-3), ['user', 'model_change', 'assistant:stop']);
  assert.ok(!h.events.some((e) => e.type === 'compaction_start'));
});

test('threshold: promoted instead of compacting; the next prompt uses the larger model', async () => {
  const { h } = await promoting({});
  h.fake.enqueue({ text: 'big context answer', usage: { prompt_tokens: 3600 } });
  await h.agent.prompt('question');
  assert.ok(!h.events.some((e) => e.type === 'compaction_start'));
  assert.ok(h.events.some((e) => e.type === 'notice' && /Switched to Fake GPT Big/.test(e.message)));
  h.fake.enqueue({ text: 'next' });
  await h.agent.prompt('next question');
  assert.deepEqual(modelsRequested(h), ['fake-gpt', 'fake-gpt-big']);
  assert.ok(!(await fileEntries(h.store)).includes('compaction'));
});

test('a promotion model whose window would not hold the context is not used: compaction runs', async () => {
  const { h } = await promoting({ contextWindow: 4400 });
  for (let i = 0; i < 2; i++) {
    h.fake.enqueue({ text: `answer ${i} ${'lorem ipsum '.repeat(160)}` });
    await h.agent.prompt(`q${i} ${'lorem ipsum '.repeat(40)}`);
  }
  h.fake.enqueue({ overflow: 'openai' }, { text: summaryText('S') }, { text: 'short' }, { text: 'retried' });
  await h.agent.prompt(`question ${'lorem ipsum '.repeat(40)}`);
  assert.ok(!h.events.some((e) => e.type === 'model_changed'));
  assert.ok(!modelsRequested(h).includes('fake-gpt-big'));
  assert.ok(h.events.some((e) => e.type === 'compaction_end' && e.reason === 'overflow' && e.outcome.status === 'compacted'));
  assert.deepEqual(pathEntries(h.store).slice(-2), ['compaction', 'assistant:stop']);
});

test('no promotion without credentials, without a configured model, or to a smaller model', async () => {
  for (const promotion of [{ provider: 'nokey' }, undefined, { contextWindow: 2000 }]) {
    const { h } = await promoting(promotion);
    h.fake.enqueue({ overflow: 'openai' });
    await h.agent.prompt('q');
    await h.agent.whenIdle();
    assert.ok(!h.events.some((e) => e.type === 'model_changed'), JSON.stringify(promotion));
    assert.ok(!modelsRequested(h).includes('fake-gpt-big'));
  }
});

test('overflow on the promoted model falls back to compaction (promotion does not use up the overflow retry)', async () => {
  const { h } = await promoting({});
  // Replies long enough that a summary shrinks the context (a compaction that would not is refused).
  h.fake.enqueue({ text: `first ${'lorem ipsum '.repeat(160)}`, usage: { prompt_tokens: 100 } });
  await h.agent.prompt(`q0 ${'lorem ipsum '.repeat(40)}`);
  h.fake.enqueue({ text: `second ${'lorem ipsum '.repeat(160)}`, usage: { prompt_tokens: 200 } });
  await h.agent.prompt(`q1 ${'lorem ipsum '.repeat(40)}`);
  h.fake.requests.length = 0;
  h.fake.enqueue({ overflow: 'openai' }, { overflow: 'openai' }, { text: summaryText('AFTER-PROMOTION') }, { text: 'short' }, { text: 'finally' });
  await h.agent.prompt(`q2 ${'lorem ipsum '.repeat(40)}`);
  assert.deepEqual(modelsRequested(h), ['fake-gpt', 'fake-gpt-big', 'fake-gpt-big', 'fake-gpt-big', 'fake-gpt-big']);
  assert.ok(h.events.some((e) => e.type === 'compaction_end' && e.reason === 'overflow' && e.outcome.status === 'compacted'));
  assert.equal(pathEntries(h.store).at(-1), 'assistant:stop');
});

test('choosePromotion: order, larger window, fits below its threshold, usable', async () => {
  const base = openaiModel('http://x', { contextWindow: 1000 });
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 100 };
  const a = { ...base, id: 'a', contextWindow: 900 };
  const b = { ...base, id: 'b', contextWindow: 2000 };
  const c = { ...base, id: 'c', contextWindow: 10_000 };
  const yes = async () => true;
  assert.equal((await choosePromotion({ current: base, configured: [a, b, c], contextTokens: 1500, settings, usable: yes }))?.id, 'b');
  assert.equal((await choosePromotion({ current: base, configured: [a, b, c], contextTokens: 1800, settings, usable: yes }))?.id, 'c');
  assert.equal((await choosePromotion({ current: base, configured: [b, c], contextTokens: 1500, settings, usable: async (m) => m.id !== 'b' }))?.id, 'c');
  assert.equal(await choosePromotion({ current: base, configured: undefined, contextTokens: 1, settings, usable: yes }), undefined);
  assert.equal(await choosePromotion({ current: base, configured: base, contextTokens: 1, settings, usable: yes }), undefined);
  assert.equal(promotionNotice(c), 'Switched to Fake GPT (larger context) instead of compacting.');
});
