// Context promotion from the user's settings (issue 17): `arbor.compaction.promotionModel` and a per-model
// `promoteTo` in `arbor.models` reach the agent, so an overflow switches to the larger model instead of
// compacting. Before the fix nothing passed a promotion model to the agent: the overflow compacted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appHarness, type AppHarness } from './helpers';

function models(h: { fake: { openaiBaseUrl: string } }, promoteTo?: string): unknown[] {
  const base = { provider: 'openai', api: 'openai-completions', baseUrl: h.fake.openaiBaseUrl, maxOutputTokens: 1024 };
  return [
    { ...base, id: 'fake-gpt', name: 'Fake GPT', contextWindow: 4000, ...(promoteTo ? { promoteTo } : {}) },
    { ...base, id: 'fake-gpt-big', name: 'Fake GPT Big', contextWindow: 100_000 },
  ];
}

async function overflowOnce(h: AppHarness): Promise<string[]> {
  h.fake.enqueue({ overflow: 'openai' }, { text: 'answered by the big model' });
  await h.app.prompt('a long question');
  return h.fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body.model as string);
}

test('arbor.compaction.promotionModel reaches the agent: an overflow switches to that model and retries', async () => {
  const h = await appHarness();
  h.setRaw({ models: models(h), compaction: { promotionModel: 'openai/fake-gpt-big' } });
  await h.app.applySettings();
  assert.deepEqual(await overflowOnce(h), ['fake-gpt', 'fake-gpt-big']);
  assert.equal(h.app.snapshot().model.key, 'openai/fake-gpt-big');
});

test('a per-model promoteTo in arbor.models reaches the agent the same way', async () => {
  const h = await appHarness();
  h.setRaw({ models: models(h, 'openai/fake-gpt-big') });
  await h.app.applySettings();
  assert.deepEqual(await overflowOnce(h), ['fake-gpt', 'fake-gpt-big']);
});

test('no promotion configured: the overflow is not answered by another model', async () => {
  const h = await appHarness();
  h.setRaw({ models: models(h) });
  await h.app.applySettings();
  const requested = await overflowOnce(h);
  assert.ok(!requested.includes('fake-gpt-big'), requested.join(','));
});
