import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyUsage, type AgentMessage } from '../../../src/core/messages';
import { calculateContextTokens, estimateContextTokens, estimateTokens } from '../../../src/compaction/tokens';

const usage = (total: number) => ({ ...emptyUsage(), input: total - 10, output: 10, totalTokens: total });

test('estimateTokens follows pi per role (chars/4, rounded up)', () => {
  assert.equal(estimateTokens({ role: 'user', content: 'abcde', timestamp: 0 }), 2);
  assert.equal(
    estimateTokens({ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image', data: 'x', mimeType: 'image/png' }], timestamp: 0 }),
    1,
    'images in user messages are free',
  );
  assert.equal(
    estimateTokens({ role: 'toolResult', toolCallId: 'a', toolName: 't', isError: false, timestamp: 0, content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] }),
    1200,
  );
  const assistant: AgentMessage = {
    role: 'assistant',
    content: [
      { type: 'text', text: 'abcd' },
      { type: 'thinking', thinking: 'efgh' },
      { type: 'toolCall', id: '1', name: 'read', arguments: { path: 'a' } },
    ],
    api: 'x', provider: 'p', model: 'm', usage: emptyUsage(), stopReason: 'stop', timestamp: 0,
  };
  // 4 + 4 + "read".length + '{"path":"a"}'.length = 8 + 4 + 12 = 24 chars
  assert.equal(estimateTokens(assistant), 6);
  assert.equal(estimateTokens({ role: 'bashExecution', command: 'ls', output: 'ab', exitCode: 0, cancelled: false, truncated: false, timestamp: 0 }), 1);
  assert.equal(estimateTokens({ role: 'compactionSummary', summary: 'x'.repeat(9), tokensBefore: 0, timestamp: 0 }), 3);
});

test('calculateContextTokens prefers totalTokens, else sums the parts', () => {
  assert.equal(calculateContextTokens({ ...emptyUsage(), totalTokens: 50, input: 1 }), 50);
  assert.equal(calculateContextTokens({ ...emptyUsage(), input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }), 10);
});

test('estimateContextTokens anchors on the newest valid usage and estimates what follows', () => {
  const a = (total: number, stopReason: 'stop' | 'error' = 'stop'): AgentMessage => ({
    role: 'assistant', content: [{ type: 'text', text: 'ok' }], api: 'x', provider: 'p', model: 'm', usage: usage(total), stopReason, timestamp: 0,
  });
  const u = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 0 });
  const result = estimateContextTokens([u('x'.repeat(400)), a(500), u('x'.repeat(40)), a(9999, 'error'), u('x'.repeat(8))]);
  assert.equal(result.lastUsageIndex, 1);
  assert.equal(result.usageTokens, 500);
  assert.equal(result.trailingTokens, 10 + 1 + 2);
  assert.equal(result.tokens, 513);
  const none = estimateContextTokens([u('x'.repeat(40))]);
  assert.deepEqual(none, { tokens: 10, usageTokens: 0, trailingTokens: 10, lastUsageIndex: null });
});

test('a custom estimator is used instead of chars/4', () => {
  const result = estimateContextTokens([{ role: 'user', content: 'anything', timestamp: 0 }], () => 7);
  assert.equal(result.tokens, 7);
});
