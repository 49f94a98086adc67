// Anthropic's on-demand compaction through a real AgentSession against the fake server (which checks a
// replayed block the way the API does: first in `messages`, signature intact, beta header present): the
// block is stored in preserveData, the next request to a model that takes it starts with it, and every
// other model (or provider) gets the local summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANTHROPIC_COMPACTION_KEY, supportsAnthropicCompaction, type AnthropicCompaction } from '../../../src/compaction';
import type { CompactionEntry } from '../../../src/session/entries';
import { harness, requestText, summaryText, type Harness } from '../agent/session-helpers';
import { openaiModel } from '../llm/helpers';

async function withHistory(id: string): Promise<Harness> {
  const h = await harness({ api: 'anthropic', model: { id }, settings: { keepRecentTokens: 60, reserveTokens: 1000, remoteEnabled: true } });
  for (let i = 0; i < 3; i++) {
    h.fake.enqueue({ text: `ANSWER-${i} ${'lorem ipsum '.repeat(160)}` });
    await h.agent.prompt(`QUESTION-${i} ${'dolor sit amet '.repeat(10)}`);
  }
  h.fake.requests.length = 0;
  h.fake.enqueue({ text: summaryText('LOCAL-SUMMARY') }, { text: 'We worked on it.' });
  return h;
}

const compactionRequests = (h: Harness) => h.fake.requests.filter((r) => r.path === '/v1/messages' && r.body.compaction);

function nativeBlock(h: Harness): AnthropicCompaction | undefined {
  const entry = [...h.store.getBranch()].reverse().find((e) => e.type === 'compaction') as CompactionEntry | undefined;
  return entry?.preserveData?.[ANTHROPIC_COMPACTION_KEY] as AnthropicCompaction | undefined;
}

test('Anthropic native compaction: the block is stored, the next request starts with it, another provider gets the local summary', async () => {
  const h = await withHistory('claude-sonnet-4-6');
  assert.equal((await h.agent.compact()).status, 'compacted');
  const [request] = compactionRequests(h);
  assert.ok(request, 'one compaction request');
  assert.deepEqual(request.body.compaction, { type: 'summarize' });
  assert.match(String(request.headers['anthropic-beta']), /compact-2026-09-04/);
  assert.ok(!JSON.stringify(request.body.messages).includes('ANSWER-2'), 'only the summarized messages are compacted');
  const stored = nativeBlock(h);
  assert.equal(stored?.block.type, 'compaction');
  assert.match(String(stored?.block.content), /^Fake compaction summary/);

  h.fake.enqueue({ text: 'after compaction' });
  await h.agent.prompt('next');
  const turn = h.llmRequests().at(-1)!;
  assert.equal(h.events.some((e) => e.type === 'error'), false, 'the fake accepted the replayed block');
  const messages = turn.body.messages as { role: string; content: Record<string, unknown>[] }[];
  assert.equal(messages[0]!.role, 'assistant');
  assert.deepEqual(messages[0]!.content[0], stored!.block, 'the block goes back first, unchanged');
  assert.match(String(turn.headers['anthropic-beta']), /compact-2026-09-04/);
  assert.doesNotMatch(requestText(turn), /LOCAL-SUMMARY goal/);
  assert.match(JSON.stringify(messages), /ANSWER-2/, 'the kept messages follow the block');
  const words = String(messages[1]!.content[0]!.text);
  assert.equal(messages[1]!.role, 'user');
  assert.match(words, /^## What the User Said \(verbatim\)[\s\S]*QUESTION-0 dolor sit amet/, "the user's kept words go right after the block (the block replaced the summary text)");

  await h.agent.setModel(openaiModel(h.fake.openaiBaseUrl));
  h.fake.enqueue({ text: 'on openai' });
  await h.agent.prompt('again');
  const other = h.llmRequests().at(-1)!;
  assert.match(requestText(other), /LOCAL-SUMMARY goal/, 'another provider gets the local summary');
  assert.doesNotMatch(JSON.stringify(other.body), /Fake compaction summary/);
});

test('a Claude model without compaction support never asks for it and keeps the local summary', async () => {
  const h = await withHistory('claude-sonnet-4-5');
  await h.agent.compact();
  assert.equal(compactionRequests(h).length, 0);
  assert.equal(nativeBlock(h), undefined);
  h.fake.enqueue({ text: 'after' });
  await h.agent.prompt('next');
  assert.match(requestText(h.llmRequests().at(-1)!), /LOCAL-SUMMARY goal/);
});

test('supportsAnthropicCompaction: Opus/Sonnet 4.6 and later, the 5.x families, or a model marked nativeCompaction', () => {
  const base = { provider: 'anthropic', api: 'anthropic-messages' as const };
  for (const id of ['claude-sonnet-4-6', 'claude-opus-4-7', 'claude-opus-5-5', 'claude-sonnet-5']) assert.equal(supportsAnthropicCompaction({ ...base, id }), true, id);
  for (const id of ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-3-5-sonnet']) assert.equal(supportsAnthropicCompaction({ ...base, id }), false, id);
  assert.equal(supportsAnthropicCompaction({ ...base, id: 'my-claude', nativeCompaction: true }), true);
  assert.equal(supportsAnthropicCompaction({ ...base, id: 'claude-opus-4-7', nativeCompaction: false }), false);
  assert.equal(supportsAnthropicCompaction({ provider: 'local', api: 'openai-compatible', id: 'claude-opus-4-7' }), false);
});
