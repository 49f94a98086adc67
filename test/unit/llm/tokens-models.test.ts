import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextTokens, countTextTokens, estimateMessageTokens, isTokenizerLoaded, loadTokenizer, applyModelMargin } from '../../../src/llm/tokens';
import { BUILTIN_MODELS, costFor, findModel, resolveModels } from '../../../src/llm/models';
import { emptyUsage, type AgentMessage, type AssistantMessage } from '../../../src/core/messages';

test('chars/4 fallback before load, cl100k after; special tokens count as text', async () => {
  // other test files may have loaded it already in this process; only check the fallback if not
  if (!isTokenizerLoaded()) assert.equal(countTextTokens('abcdefgh'), 2);
  await loadTokenizer();
  assert.equal(isTokenizerLoaded(), true);
  assert.equal(countTextTokens('hello world'), 2);
  const special = countTextTokens('before <|endoftext|> after');
  assert.ok(special > 3, 'no throw on special tokens');
  // a hash-heavy text that chars/4 under-counts
  const hashes = Array.from({ length: 50 }, (_, i) => (i * 2654435761).toString(16)).join(' ');
  assert.ok(countTextTokens(hashes) > Math.ceil(hashes.length / 4));
});

test('estimateMessageTokens is cached per message object', async () => {
  await loadTokenizer();
  const message: AgentMessage = { role: 'user', content: 'the quick brown fox', timestamp: 0 };
  const first = estimateMessageTokens(message);
  (message as { content: string }).content = 'changed text that is much longer than before, really';
  assert.equal(estimateMessageTokens(message), first, 'second call uses the cache');
  const image: AgentMessage = { role: 'toolResult', toolCallId: 'a', toolName: 'read', isError: false, timestamp: 0, content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] };
  assert.equal(estimateMessageTokens(image), 1200);
});

function assistant(totalTokens: number, stopReason: AssistantMessage['stopReason'] = 'stop'): AssistantMessage {
  return { role: 'assistant', content: [{ type: 'text', text: 'reply text' }], api: 'x', provider: 'x', model: 'x', usage: { ...emptyUsage(), input: totalTokens - 10, output: 10, totalTokens }, stopReason, timestamp: 0 };
}

test('contextTokens: usage of the last valid assistant + estimates after it', async () => {
  await loadTokenizer();
  const after: AgentMessage = { role: 'user', content: 'follow-up question here', timestamp: 0 };
  const messages: AgentMessage[] = [{ role: 'user', content: 'q', timestamp: 0 }, assistant(5000), after, assistant(99999, 'error')];
  const r = contextTokens(messages);
  assert.equal(r.lastUsageIndex, 1);
  assert.equal(r.usageTokens, 5000);
  assert.equal(r.trailingTokens, estimateMessageTokens(after) + estimateMessageTokens(messages[3]!));
  assert.equal(r.tokens, r.usageTokens + r.trailingTokens);
  const none = contextTokens([after]);
  assert.equal(none.lastUsageIndex, null);
  assert.equal(none.tokens, estimateMessageTokens(after));
  assert.equal(applyModelMargin(100, { api: 'anthropic-messages', provider: 'anthropic' }), 125);
  assert.equal(applyModelMargin(100, { api: 'openai-completions', provider: 'openai' }), 100);
});

test('models: built-ins, overrides, additions; invalid entries reported and skipped', () => {
  const { models, problems } = resolveModels([
    { provider: 'anthropic', id: 'claude-sonnet-4-5', contextWindow: 1_000_000 },
    { provider: 'local', id: 'qwen3-coder', baseUrl: 'http://localhost:11434/v1', contextWindow: 32768 },
    { provider: 'openai', id: 'gpt-x', contextWindow: -5 },
    { id: 'missing-provider' },
    'not an object',
    { provider: 'weird', id: 'no-api' },
  ]);
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.match(problems[0]!, /models\[2\].*contextWindow/);
  assert.match(problems[3]!, /needs "api" or "baseUrl"/);
  const sonnet = findModel(models, 'anthropic/claude-sonnet-4-5')!;
  assert.equal(sonnet.contextWindow, 1_000_000);
  assert.equal(sonnet.pricing.input, 3, 'untouched fields keep the built-in value');
  const local = findModel(models, 'local/qwen3-coder')!;
  assert.equal(local.api, 'openai-compatible');
  assert.equal(local.contextWindow, 32768);
  assert.equal(findModel(models, 'qwen3-coder'), local, 'bare id when unambiguous');
  assert.equal(resolveModels({ not: 'an array' }).problems.length, 1);
  assert.equal(resolveModels(undefined).models.length, BUILTIN_MODELS.length);
});

test('costFor uses per-million prices', () => {
  const sonnet = findModel(BUILTIN_MODELS, 'anthropic/claude-sonnet-4-5')!;
  const cost = costFor({ input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 0 }, sonnet);
  assert.equal(cost.input, 3);
  assert.equal(cost.output, 1.5);
  assert.ok(Math.abs(cost.cacheRead - 0.6) < 1e-9);
  assert.ok(Math.abs(cost.total - 5.1) < 1e-9);
});
