import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSse, type SseEvent } from '../../../src/llm/sse';
import { nestErrorBody } from '../../../src/llm/error-body';
import { ProviderStreamError } from '../../../src/llm/stream-error';
import { classifyProviderError } from '../../../src/llm/overflow';

async function events(pieces: Uint8Array[]): Promise<SseEvent[]> {
  async function* body() {
    for (const p of pieces) yield p;
  }
  const out: SseEvent[] = [];
  for await (const e of readSse(body(), () => {})) out.push(e);
  return out;
}

const STREAM = ': keep-alive\r\n\r\nevent: message\r\ndata: {"a":"é✓"}\r\n\r\ndata: line1\ndata: line2\n\nerror: {"code":400}\n\ndata: [DONE]\r\r';
const EXPECTED: SseEvent[] = [
  { field: 'data', event: 'message', data: '{"a":"é✓"}' },
  { field: 'data', event: undefined, data: 'line1\nline2' },
  { field: 'error', event: undefined, data: '{"code":400}' },
  { field: 'data', event: undefined, data: '[DONE]' },
];

test('SSE reader: the same events at every split point of the bytes (CRLF, CR, multi-byte, comments, error field)', async () => {
  const bytes = new TextEncoder().encode(STREAM);
  for (let cut = 0; cut <= bytes.length; cut++) {
    assert.deepEqual(await events([bytes.subarray(0, cut), bytes.subarray(cut)]), EXPECTED, `split at ${cut}`);
  }
  assert.deepEqual(await events([...bytes].map((b) => Uint8Array.of(b))), EXPECTED, 'one byte at a time');
});

test('SSE reader: a last event without its blank line is still delivered', async () => {
  assert.deepEqual(await events([new TextEncoder().encode('data: {"x":1}')]), [{ field: 'data', event: undefined, data: '{"x":1}' }]);
});

test('older vLLM error bodies are nested under "error"; others are kept as sent', () => {
  const vllm = '{"object":"error","message":"boom","type":"BadRequestError","param":null,"code":400}';
  assert.deepEqual(JSON.parse(nestErrorBody(vllm)), { error: JSON.parse(vllm) });
  for (const kept of ['{"error":{"message":"x"}}', '{"error":"Context size has been exceeded."}', 'not json', '[1]', '{"detail":"x"}']) {
    assert.equal(nestErrorBody(kept), kept);
  }
});

test('an error inside a stream is classified like an HTTP error body', () => {
  const llama = classifyProviderError(new ProviderStreamError({ code: 500, message: 'Context size has been exceeded.', type: 'server_error' }));
  assert.deepEqual([llama.kind, llama.retryable, llama.status, llama.message], ['overflow', false, 500, 'Context size has been exceeded.']);
  const server = classifyProviderError(new ProviderStreamError({ message: 'The server had an error', type: 'server_error', code: null }));
  assert.deepEqual([server.kind, server.retryable], ['server', true]);
  const text = classifyProviderError(new ProviderStreamError('Trying to keep the first 9 tokens when context the overflows.'));
  assert.equal(text.kind, 'overflow');
});
