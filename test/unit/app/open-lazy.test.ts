// What the app computes on demand instead of at open: tool-call pairing for calls made before the session
// was (re)opened, branch totals kept up to date on appends, the first user message for unnamed sessions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentMessage } from '../../../src/core/messages';
import type { ConversationEntry } from '../../../src/app/view-model';
import { appHarness } from './helpers';

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } };

function expectedTotals(conversation: readonly ConversationEntry[]): { cost: number; tokens: number } {
  let cost = 0;
  let tokens = 0;
  for (const e of conversation) if (e.kind === 'assistant' && e.usage) (cost += e.usage.cost), (tokens += e.usage.input + e.usage.output);
  return { cost, tokens };
}

test('a tool result appended after reopening pairs with the call made before (callEntryId), a second result for it does not', async () => {
  const h = await appHarness();
  await h.app.prompt('Say hello');
  const store = h.app.currentStore!;
  const file = store.file;
  const call = await store.appendMessage({
    role: 'assistant', content: [{ type: 'toolCall', id: 'early-1', name: 'read', arguments: { path: 'a.txt' } }],
    api: 'openai-completions', provider: 'openai', model: 'fake-gpt', usage, stopReason: 'toolUse', timestamp: Date.now(),
  } as AgentMessage);
  await h.app.session.newSession();
  await h.app.session.openSession(file);
  h.changes.length = 0;
  const result = { role: 'toolResult', toolCallId: 'early-1', toolName: 'read', content: [{ type: 'text', text: 'file text' }], isError: false, timestamp: Date.now() } as AgentMessage;
  const first = await h.app.currentStore!.appendMessage(result);
  const second = await h.app.currentStore!.appendMessage(result);
  const appended = h.changes.flatMap((c) => (c.kind === 'conversation' ? c.appended : []));
  assert.deepEqual(appended.map((v) => [v.id, v.callEntryId]), [[first.id, call.id], [second.id, undefined]]);
  // the same pairing as building the whole path
  const conv = h.app.snapshot({ tree: false }).conversation;
  assert.equal(conv.find((v) => v.id === first.id)!.callEntryId, call.id);
  assert.equal(conv.find((v) => v.id === second.id)!.callEntryId, undefined);
});

test('branchTotals follow appends and leaf moves and equal the totals of the conversation', async () => {
  const h = await appHarness();
  await h.app.prompt('first question');
  assert.deepEqual(h.app.views.branchTotals(), expectedTotals(h.app.snapshot().conversation));
  const store = h.app.currentStore!;
  const reply = await store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'more' }], api: 'openai-completions', provider: 'openai', model: 'fake-gpt', usage, stopReason: 'stop', timestamp: Date.now() } as AgentMessage);
  const after = h.app.views.branchTotals();
  assert.deepEqual(after, expectedTotals(h.app.snapshot().conversation));
  assert.ok(after.cost >= 0.25 && after.tokens >= 15, 'the appended reply counts');
  await h.app.tree.branchAt(reply.parentId!);
  assert.deepEqual(h.app.views.branchTotals(), expectedTotals(h.app.snapshot().conversation));
  assert.ok(h.app.views.branchTotals().cost < after.cost, 'the reply left the path');
});

test('firstUserMessage: the first user message of the session, none for a new one; snapshot can skip the conversation', async () => {
  const h = await appHarness();
  assert.equal(h.app.views.firstUserMessage(), undefined);
  await h.app.prompt('Say hello\nsecond line');
  await h.app.prompt('Another');
  assert.equal(h.app.views.firstUserMessage(), 'Say hello\nsecond line');
  assert.deepEqual(h.app.snapshot({ conversation: false, tree: false }).conversation, []);
  await h.app.session.newSession();
  assert.equal(h.app.views.firstUserMessage(), undefined);
  await h.app.prompt('Fresh start');
  assert.equal(h.app.views.firstUserMessage(), 'Fresh start');
});
