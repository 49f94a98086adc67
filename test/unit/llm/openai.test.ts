import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server.mjs';
import { createProvider } from '../../../src/llm/registry';
import { isContextOverflow } from '../../../src/llm/overflow';
import type { AssistantMessage, ToolResultMessage } from '../../../src/core/messages';
import { OPENAI_KEY, collect, fastRetry, keys, openaiModel, request, textOf, user } from './helpers';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function provider(overrides = {}, options = fastRetry().options) {
  return createProvider(openaiModel(fake.openaiBaseUrl, overrides), keys(), options);
}

test('streams text with include_usage and normalized usage + cost', async () => {
  fake.enqueue({ text: 'Hello from the fake model, streamed in pieces.' });
  const { events, message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('hi')]));
  assert.equal(events[0]!.type, 'start');
  const deltas = events.filter((e) => e.type === 'text_delta');
  assert.ok(deltas.length > 2, 'text arrives in several deltas');
  assert.equal(textOf(message), 'Hello from the fake model, streamed in pieces.');
  assert.equal(message.stopReason, 'stop');
  const sent = fake.requests[0]!;
  assert.deepEqual(sent.body.stream_options, { include_usage: true });
  assert.equal(sent.body.max_completion_tokens, 1024);
  assert.equal(message.usage.input, sent.promptTokens);
  assert.ok(message.usage.output > 5);
  assert.equal(message.usage.totalTokens, message.usage.input + message.usage.output);
  assert.ok(Math.abs(message.usage.cost.input - (message.usage.input * 2) / 1e6) < 1e-12);
  assert.equal(message.usageEstimated, undefined);
});

test('cached prompt tokens are reported as cacheRead, not input', async () => {
  fake.enqueue({ text: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 2, total_tokens: 1002, prompt_tokens_details: { cached_tokens: 800 } } });
  const { message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.usage.input, 200);
  assert.equal(message.usage.cacheRead, 800);
  assert.equal(message.usage.totalTokens, 1002);
});

test('tool calls arrive with incremental argument deltas and stop as toolUse', async () => {
  fake.enqueue({ text: 'Reading.', toolCalls: [{ name: 'read', input: { path: 'src/a.ts', limit: 20 } }, { name: 'grep', input: { pattern: 'TODO' } }] });
  const tools = [
    { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'grep', description: 'Search', parameters: { type: 'object', properties: { pattern: { type: 'string' } } } },
  ];
  const { events, message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('read a.ts')], { tools }));
  assert.equal(message.stopReason, 'toolUse');
  const calls = message.content.filter((b) => b.type === 'toolCall');
  assert.equal(calls.length, 2);
  assert.deepEqual(calls[0]!.arguments, { path: 'src/a.ts', limit: 20 });
  assert.deepEqual(calls[1]!.arguments, { pattern: 'TODO' });
  const argDeltas = events.filter((e) => e.type === 'toolcall_delta' && e.contentIndex === 1);
  assert.ok(argDeltas.length >= 2, 'arguments streamed in more than one delta');
  assert.equal(events.filter((e) => e.type === 'toolcall_end').length, 2);
  assert.equal(fake.requests[0]!.body.tools[0].function.name, 'read');
});

test('tool results go back as tool messages on the next request', async () => {
  fake.enqueue({ toolCalls: [{ id: 'call_1', name: 'read', input: { path: 'a.txt' } }] }, { text: 'The file says hi.' });
  const model = openaiModel(fake.openaiBaseUrl);
  const p = provider();
  const first = await collect(p, request(model, [user('read a.txt')]));
  const result: ToolResultMessage = { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'hi' }], isError: false, timestamp: Date.now() };
  const second = await collect(p, request(model, [user('read a.txt'), first.message, result]));
  assert.equal(textOf(second.message), 'The file says hi.');
  const msgs = fake.requests[1]!.body.messages;
  assert.equal(msgs.at(-1).role, 'tool');
  assert.equal(msgs.at(-1).tool_call_id, 'call_1');
  assert.equal(msgs.at(-2).tool_calls[0].function.arguments, '{"path":"a.txt"}');
});

test('reasoning models get reasoning_effort; reasoning_content streams as thinking', async () => {
  fake.enqueue({ thinking: 'Let me think about it.', text: 'Answer.' });
  const model = openaiModel(fake.openaiBaseUrl, { reasoning: true });
  const { events, message } = await collect(provider({ reasoning: true }), request(model, [user('q')], { thinkingLevel: 'high' }));
  assert.equal(fake.requests[0]!.body.reasoning_effort, 'high');
  assert.ok(events.some((e) => e.type === 'thinking_delta'));
  assert.equal(message.content[0]!.type, 'thinking');
  assert.equal((message.content[0] as { thinking: string }).thinking, 'Let me think about it.');
  assert.equal(textOf(message), 'Answer.');
});

test('finish_reason length gives stopReason length, truncated to the budget', async () => {
  fake.enqueue({ text: 'one two three four five six seven eight nine ten eleven twelve' });
  const model = openaiModel(fake.openaiBaseUrl);
  const { message } = await collect(provider(), request(model, [user('count')], { maxTokens: 4 }));
  assert.equal(message.stopReason, 'length');
  assert.equal(message.usage.output, 4);
});

test('content_filter ends as an error, never a silent success', async () => {
  fake.enqueue({ text: 'partial', stop: 'content_filter' });
  const { message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /content filter/);
});

for (const flavor of ['openai', 'llamacpp', 'lmstudio', 'vllm', 'ollama'] as const) {
  test(`overflow body of ${flavor} is classified as overflow and not retried`, async () => {
    fake.setModel('fake-gpt', { contextWindow: 50, overflowFlavor: flavor });
    const { delays, options } = fastRetry();
    const { message, events } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('word '.repeat(200))]));
    assert.equal(message.stopReason, 'error');
    assert.equal(isContextOverflow(message, 50), true, `${flavor}: ${message.errorMessage}`);
    assert.equal(message.errorKind, 'overflow');
    assert.equal(events.filter((e) => e.type === 'retry').length, 0);
    assert.deepEqual(delays, []);
    assert.equal(fake.requests.length, 1);
  });
}

test('silent overflow: a 200 reply whose reported prompt exceeds the window is detected', async () => {
  const model = openaiModel(fake.openaiBaseUrl, { contextWindow: 60 });
  fake.enqueue({ text: 'ok', usage: { prompt_tokens: 75 } });
  const { message } = await collect(provider(), request(model, [user('word '.repeat(200))]));
  assert.equal(message.stopReason, 'stop');
  assert.equal(isContextOverflow(message, 60), true);
});

test('429 with retry-after-ms is retried after that delay and succeeds', async () => {
  fake.enqueue({ error: { kind: 'rate_limit', retryAfterMs: 1500 } }, { text: 'after retry' });
  const { delays, options } = fastRetry();
  const { events, message } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(textOf(message), 'after retry');
  assert.deepEqual(delays, [1500]);
  const retry = events.find((e) => e.type === 'retry');
  assert.ok(retry && retry.type === 'retry');
  assert.equal(retry.attempt, 1);
  assert.equal(retry.delayMs, 1500);
  assert.equal(fake.requests.length, 2);
  assert.deepEqual(fake.requests[0]!.body, fake.requests[1]!.body, 'the retry re-sends the same body');
});

test('errors without retry-after back off 2/4/8 s and surface after 3 retries', async () => {
  fake.enqueue({ error: { kind: 'server', times: 10 } });
  const { delays, options } = fastRetry();
  const { events, message } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.deepEqual(delays, [2000, 4000, 8000]);
  assert.equal(events.filter((e) => e.type === 'retry').length, 3);
  assert.equal(message.stopReason, 'error');
  assert.equal(message.errorKind, 'server');
  assert.equal(fake.requests.length, 4);
});

test('retry-after above the cap is not waited for', async () => {
  fake.enqueue({ error: { kind: 'rate_limit', retryAfterMs: 3_600_000 } });
  const { delays, options } = fastRetry();
  const { message } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.equal(message.errorKind, 'rate_limit');
  assert.deepEqual(delays, []);
});

test('x-should-retry false and insufficient_quota are not retried', async () => {
  fake.enqueue({ error: { kind: 'rate_limit', shouldRetry: false, retryAfterMs: 5 } }, { error: { kind: 'quota' } });
  const { delays, options } = fastRetry();
  const p = provider({}, options);
  const a = await collect(p, request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  const b = await collect(p, request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(a.message.stopReason, 'error');
  assert.equal(b.message.stopReason, 'error');
  assert.equal(b.message.errorKind, 'quota');
  assert.equal(isContextOverflow(a.message, 100), false, 'a rate limit is never an overflow');
  assert.deepEqual(delays, []);
});

test('abort during the retry delay ends as aborted', async () => {
  fake.enqueue({ error: { kind: 'server', times: 5 } });
  const controller = new AbortController();
  const options = { retry: { sleep: async () => controller.abort() } };
  const { message } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('x')], { signal: controller.signal }));
  assert.equal(message.stopReason, 'aborted');
  assert.equal(fake.requests.length, 1);
});

test('SSE error mid-stream ends as error and is not retried after output', async () => {
  fake.enqueue({ text: 'some text that will be cut', chunkSize: 4, midStreamError: { afterChunks: 3, message: 'upstream exploded' } });
  const { delays, options } = fastRetry();
  const { message } = await collect(provider({}, options), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /upstream exploded/);
  assert.deepEqual(delays, []);
  assert.equal(fake.requests.length, 1);
});

test('abort mid-stream yields aborted with the partial text', async () => {
  // long enough (about 100 s of chunks) that no lag of a loaded machine lets the whole reply arrive before
  // the abort: the partial text is what the provider had received, which under load ran ahead of the loop
  const FULL = 'a long reply '.repeat(2000);
  fake.enqueue({ text: FULL, chunkSize: 4, delayMs: 15 });
  const controller = new AbortController();
  const events = [];
  let message: AssistantMessage | undefined;
  for await (const e of provider().stream(request(openaiModel(fake.openaiBaseUrl), [user('x')], { signal: controller.signal }))) {
    events.push(e);
    if (e.type === 'text_delta' && events.length === 4) controller.abort();
    if (e.type === 'done') message = e.message;
  }
  assert.ok(message);
  assert.equal(message.stopReason, 'aborted');
  assert.ok(textOf(message).length > 0 && textOf(message).length < FULL.length);
});

test('dropped socket mid-stream ends as error', async () => {
  fake.enqueue({ text: 'this stream will drop', chunkSize: 4, dropAfterChunks: 3 });
  const { message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.ok(message.errorMessage);
});

test('stream ending without finish_reason is an error, not a success', async () => {
  fake.enqueue({ text: 'truncated stream', chunkSize: 4, endWithoutTerminal: 3 });
  const { message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /without a finish_reason/);
});

test('hanging stream hits the idle timeout and ends as error', async () => {
  fake.enqueue({ text: 'hello there friend', chunkSize: 4, hangAfterChunks: 2 });
  const started = Date.now();
  const { message } = await collect(provider({}, { idleTimeoutMs: 200, retry: { sleep: async () => {} } }), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /timed out/);
  assert.ok(Date.now() - started < 3000);
});

test('a server that never answers (ttfb) times out too', async () => {
  fake.enqueue({ text: 'late', ttfbMs: 1500 }, { text: 'second try' });
  const { delays, options } = fastRetry();
  const { message, events } = await collect(provider({}, { ...options, idleTimeoutMs: 150 }), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  // nothing was streamed before the timeout, so the attempt is retried and the second one succeeds
  assert.equal(events.filter((e) => e.type === 'retry').length, 1);
  assert.equal(delays.length, 1);
  assert.equal(textOf(message), 'second try');
});

test('malformed SSE ends as error', async () => {
  fake.enqueue({ text: 'this will break', chunkSize: 4, malformedAfterChunks: 2 });
  const { message } = await collect(provider(), request(openaiModel(fake.openaiBaseUrl), [user('x')]));
  assert.equal(message.stopReason, 'error');
});

test('OpenAI-compatible server without usage: dummy key, max_tokens and estimated usage', async () => {
  fake.enqueue({ text: 'local model answer', zeroUsage: true });
  const model = openaiModel(fake.openaiBaseUrl, { provider: 'local', api: 'openai-compatible' });
  const p = createProvider(model, keys({}), fastRetry().options);
  const { message } = await collect(p, request(model, [user('hello local model')]));
  assert.equal(message.stopReason, 'stop');
  assert.equal(message.usageEstimated, true);
  assert.ok(message.usage.input > 5, 'prompt estimated');
  assert.ok(message.usage.output > 0, 'output estimated');
  const sent = fake.requests[0]!;
  assert.equal(sent.body.max_tokens, 1024);
  assert.equal(sent.body.max_completion_tokens, undefined);
  assert.equal(sent.headers.authorization, 'REDACTED');
});

test('keys never appear in the request log, events or error messages', async () => {
  fake.configure({ apiKey: OPENAI_KEY });
  fake.enqueue({ text: 'fine' });
  const model = openaiModel(fake.openaiBaseUrl);
  const ok = await collect(provider(), request(model, [user('x')]));
  assert.equal(fake.requests[0]!.auth, 'valid', 'the real key reached the server');
  const wrong = createProvider(model, keys({ openai: 'sk-wrong-key-ABCDEFGHIJKLMNOP' }), fastRetry().options);
  const bad = await collect(wrong, request(model, [user('x')]));
  assert.equal(bad.message.stopReason, 'error');
  assert.equal(bad.message.errorKind, 'auth');
  const everything = JSON.stringify({ log: fake.requests, ok: ok.events, bad: bad.events });
  assert.ok(!everything.includes(OPENAI_KEY));
  assert.ok(!everything.includes('sk-wrong-key-ABCDEFGHIJKLMNOP'));
});

test('missing key ends as an auth error without a request', async () => {
  const model = openaiModel(fake.openaiBaseUrl);
  const { message } = await collect(createProvider(model, keys({}), fastRetry().options), request(model, [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /No API key/);
  assert.equal(fake.requests.length, 0);
});

test('the raw SDK sees the fake as OpenAI: models.list and non-streamed completion', async () => {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseUrl, maxRetries: 0 });
  fake.setModel('fake-gpt', { contextWindow: 1000 });
  const list = await client.models.list();
  assert.deepEqual(list.data.map((m) => m.id), ['fake-gpt']);
  fake.enqueue({ text: 'non-streamed' });
  const completion = await client.chat.completions.create({ model: 'fake-gpt', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(completion.choices[0]!.message.content, 'non-streamed');
  assert.ok(completion.usage!.prompt_tokens > 0);
});
