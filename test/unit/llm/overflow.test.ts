import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyProviderError, isContextOverflow, isOverflowMessage, retryAfterFromHeaders } from '../../../src/llm/overflow';
import { emptyUsage, type AssistantMessage } from '../../../src/core/messages';

const OVERFLOW = [
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages.",
  'Your input exceeds the context window of this model. Please adjust your input and try again.',
  'prompt is too long: 213462 tokens > 200000 maximum',
  'input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again',
  'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).',
  'the request exceeds the available context size, try increasing it',
  'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096).',
  'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens',
  'Cannot truncate prompt with n_keep (5000) >= n_ctx (4096)',
  "This model's maximum context length is 4096 tokens. However, you requested 500 output tokens and your prompt contains at least 3800 input tokens, for a total of at least 4300 tokens.",
  'prompt too long; exceeded max context length by 120 tokens',
  'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
  'maximum prompt length is 131072 but the request contains 140000 tokens',
  'Input is too long for requested model.',
  'The input (9000 tokens) is longer than the model\'s context length (8192 tokens).',
  'prompt token count of 130000 exceeds the limit of 128000',
  '400 status code (no body)',
  'Error: context_length_exceeded',
  // issue #18: llama.cpp (HTTP 500 and mid-stream) and LM Studio (HTTP 400)
  'Context size has been exceeded.',
  // issue #18: vLLM's current wording
  'The decoder prompt (length 2136) is longer than the maximum model length of 2048.',
  // issue #18: one request above OpenAI's per-minute limit can never succeed by waiting
  'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 30601. The input or output tokens must be reduced',
];
const NOT_OVERFLOW = [
  'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 14567, Requested 24754.',
  'max_tokens: 21333 > 4096, which is the maximum allowed number of output tokens for claude',
  'Too many requests, please slow down (too many tokens)',
  'Throttling error: Too many tokens, please wait before trying again.',
  'Overloaded',
  'Invalid API key.',
];

test('consolidated overflow patterns', () => {
  for (const m of OVERFLOW) assert.equal(isOverflowMessage(m), true, m);
  for (const m of NOT_OVERFLOW) assert.equal(isOverflowMessage(m), false, m);
});

function headers(map: Record<string, string>) {
  return new Headers(map);
}

test('classifyProviderError uses status, code, type and headers', () => {
  const overflow = classifyProviderError(Object.assign(new Error('400 something'), { status: 400, code: 'context_length_exceeded', headers: headers({}) }));
  assert.equal(overflow.kind, 'overflow');
  assert.equal(overflow.retryable, false);
  const llama = classifyProviderError(Object.assign(new Error('400 bad'), { status: 400, error: { error: { type: 'exceed_context_size_error', message: 'x' } } }));
  assert.equal(llama.kind, 'overflow');
  const rate = classifyProviderError(Object.assign(new Error('429 Rate limit reached'), { status: 429, headers: headers({ 'retry-after-ms': '250' }) }));
  assert.deepEqual([rate.kind, rate.retryable, rate.retryAfterMs], ['rate_limit', true, 250]);
  const noRetry = classifyProviderError(Object.assign(new Error('503 down'), { status: 503, headers: headers({ 'x-should-retry': 'false' }) }));
  assert.deepEqual([noRetry.kind, noRetry.retryable], ['server', false]);
  const spend = classifyProviderError(Object.assign(new Error('429'), { status: 429, error: { type: 'error', error: { type: 'rate_limit_error', message: 'spend', details: { error_code: 'enforced_spend_limit_reached' } } } }));
  assert.deepEqual([spend.kind, spend.retryable], ['quota', false]);
  const bytes = classifyProviderError(Object.assign(new Error('413 Request exceeds the maximum size'), { status: 413, type: 'request_too_large' }));
  assert.equal(bytes.kind, 'overflow');
  const net = classifyProviderError(new TypeError('terminated'));
  assert.deepEqual([net.kind, net.retryable], ['network', true]);
  const badRequest = classifyProviderError(Object.assign(new Error('400 max_tokens: 21333 > 4096, which is the maximum allowed number of output tokens'), { status: 400 }));
  assert.deepEqual([badRequest.kind, badRequest.retryable], ['invalid_request', false]);
});

test('retry-after parsing: ms, seconds, HTTP date', () => {
  assert.equal(retryAfterFromHeaders({ 'retry-after-ms': '1200', 'retry-after': '9' }), 1200);
  assert.equal(retryAfterFromHeaders({ 'retry-after': '3' }), 3000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterFromHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now), 5000);
  assert.equal(retryAfterFromHeaders({}), undefined);
});

function msg(partial: Partial<AssistantMessage> & { input?: number; output?: number; cacheRead?: number }): AssistantMessage {
  const usage = { ...emptyUsage(), input: partial.input ?? 0, output: partial.output ?? 0, cacheRead: partial.cacheRead ?? 0 };
  return { role: 'assistant', content: [], api: 'x', provider: 'x', model: 'x', usage, stopReason: 'stop', timestamp: 0, ...partial } as AssistantMessage;
}

test('isContextOverflow: error text, silent overflow, length with zero output', () => {
  assert.equal(isContextOverflow(msg({ stopReason: 'error', errorMessage: 'prompt is too long: 5 tokens > 4 maximum' })), true);
  assert.equal(isContextOverflow(msg({ stopReason: 'error', errorMessage: '429 Rate limit reached: too many tokens per min' })), false);
  assert.equal(isContextOverflow(msg({ stopReason: 'stop', input: 900, cacheRead: 200 }), 1000), true);
  assert.equal(isContextOverflow(msg({ stopReason: 'stop', input: 900, cacheRead: 50 }), 1000), false);
  assert.equal(isContextOverflow(msg({ stopReason: 'length', input: 995, output: 0 }), 1000), true);
  assert.equal(isContextOverflow(msg({ stopReason: 'length', input: 995, output: 3 }), 1000), false);
  assert.equal(isContextOverflow(msg({ stopReason: 'length', input: 500, output: 0 }), 1000), false);
  assert.equal(isContextOverflow(msg({ stopReason: 'stop', input: 5000 })), false, 'no window: no silent check');
});
