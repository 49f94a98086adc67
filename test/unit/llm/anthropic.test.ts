import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, signThinking, type FakeLlm } from '../../fake-llm/server.mjs';
import { createProvider } from '../../../src/llm/registry';
import { isContextOverflow } from '../../../src/llm/overflow';
import type { AssistantMessage, ToolResultMessage } from '../../../src/core/messages';
import { ANTHROPIC_KEY, anthropicModel, collect, fastRetry, keys, request, textOf, user } from './helpers';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const model = () => anthropicModel(fake.anthropicBaseUrl);
const provider = (options = fastRetry().options) => createProvider(model(), keys(), options);
const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

test('thinking, text and tool_use stream; signature kept; Bearer auth and API version 2026-10-21', async () => {
  fake.enqueue({ thinking: 'I should read the file first.', text: 'I will read it.', toolCalls: [{ name: 'read', input: { path: 'a.ts' } }] });
  const { events, message } = await collect(provider(), request(model(), [user('read a.ts')], { tools, thinkingLevel: 'medium' }));
  assert.equal(message.stopReason, 'toolUse');
  assert.deepEqual(message.content.map((b) => b.type), ['thinking', 'text', 'toolCall']);
  const thinking = message.content[0] as { thinking: string; thinkingSignature?: string };
  assert.equal(thinking.thinking, 'I should read the file first.');
  assert.equal(thinking.thinkingSignature, signThinking('I should read the file first.'));
  const call = message.content[2] as { arguments: unknown; name: string };
  assert.deepEqual(call.arguments, { path: 'a.ts' });
  assert.ok(events.filter((e) => e.type === 'toolcall_delta').length >= 2, 'partial JSON arrives incrementally');
  assert.ok(events.some((e) => e.type === 'thinking_delta'));
  const sent = fake.requests[0]!;
  assert.equal(sent.headers['anthropic-version'], '2026-10-21');
  assert.equal(sent.headers.authorization, 'REDACTED');
  assert.deepEqual(sent.body.thinking, { type: 'enabled', budget_tokens: 4095 });
  assert.equal(sent.body.temperature, undefined);
});

test('thinking blocks with signatures and tool results are sent back on the next turn', async () => {
  fake.enqueue({ thinking: 'Plan: read.', toolCalls: [{ id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] }, { text: 'Done.' });
  const p = provider();
  const first = await collect(p, request(model(), [user('go')], { tools, thinkingLevel: 'low' }));
  const result: ToolResultMessage = { role: 'toolResult', toolCallId: 'toolu_1', toolName: 'read', content: [{ type: 'text', text: 'export {}' }], isError: false, timestamp: Date.now() };
  const second = await collect(p, request(model(), [user('go'), first.message, result], { tools, thinkingLevel: 'low' }));
  assert.equal(second.message.stopReason, 'stop', second.message.errorMessage);
  assert.equal(textOf(second.message), 'Done.');
  const msgs = fake.requests[1]!.body.messages;
  assert.equal(msgs[1].content[0].type, 'thinking');
  assert.equal(msgs[1].content[0].signature, signThinking('Plan: read.'));
  assert.equal(msgs[2].content[0].type, 'tool_result');
  assert.equal(msgs[2].content[0].tool_use_id, 'toolu_1');
});

test('a tampered thinking signature is rejected by the fake (it really checks)', async () => {
  const tampered: AssistantMessage = {
    role: 'assistant', api: 'anthropic-messages', provider: 'anthropic', model: 'fake-claude', stopReason: 'stop', timestamp: 1,
    content: [{ type: 'thinking', thinking: 'x', thinkingSignature: 'bogus' }, { type: 'text', text: 'y' }],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  };
  const { message } = await collect(provider(), request(model(), [user('a'), tampered, user('b')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /signature/);
});

test('prompt caching: breakpoints on tools, system and last message; 2nd turn billed as cache read', async () => {
  const system = 'You are a careful assistant. ' + 'Rules of the project: be precise and keep things small. '.repeat(120);
  fake.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
  const p = provider();
  const first = await collect(p, request(model(), [user('first question')], { systemPrompt: system, tools }));
  assert.ok(first.message.usage.cacheWrite > 1024, `cache write on turn 1: ${JSON.stringify(first.message.usage)}`);
  assert.equal(first.message.usage.cacheRead, 0);
  const body = fake.requests[0]!.body;
  assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
  assert.deepEqual(body.tools.at(-1).cache_control, { type: 'ephemeral' });
  assert.deepEqual(body.messages.at(-1).content.at(-1).cache_control, { type: 'ephemeral' });

  const second = await collect(p, request(model(), [user('first question'), first.message, user('second question')], { systemPrompt: system, tools }));
  const u = second.message.usage;
  assert.equal(u.cacheRead, first.message.usage.cacheWrite, 'the whole first request is read from the cache');
  assert.ok(u.input < 30, `only the new tail is uncached input: ${JSON.stringify(u)}`);
  assert.equal(u.totalTokens, u.input + u.output + u.cacheRead + u.cacheWrite);
  assert.equal(u.input + u.cacheRead + u.cacheWrite, fake.requests[1]!.promptTokens);
  // cache reads cost 0.1x of input
  assert.ok(Math.abs(u.cost.cacheRead - (u.cacheRead * 0.3) / 1e6) < 1e-12);
});

test('max_tokens stop maps to length', async () => {
  fake.enqueue({ text: 'one two three four five six seven eight nine ten eleven twelve' });
  const { message } = await collect(provider(), request(model(), [user('count')], { maxTokens: 5 }));
  assert.equal(message.stopReason, 'length');
  assert.equal(message.usage.output, 5);
});

test('prompt too long is an overflow and is not retried', async () => {
  fake.setModel('fake-claude', { contextWindow: 40 });
  const { delays, options } = fastRetry();
  const { message } = await collect(provider(options), request(model(), [user('word '.repeat(100))]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /prompt is too long/);
  assert.equal(isContextOverflow(message, 200_000), true);
  assert.deepEqual(delays, []);
  assert.equal(fake.requests.length, 1);
});

test('529 overloaded is retried (retry-after honoured) and then succeeds', async () => {
  fake.enqueue({ error: { kind: 'overloaded', retryAfterSeconds: 3, times: 2 } }, { text: 'finally' });
  const { delays, options } = fastRetry();
  const { events, message } = await collect(provider(options), request(model(), [user('x')]));
  assert.equal(textOf(message), 'finally');
  assert.deepEqual(delays, [3000, 3000]);
  assert.equal(events.filter((e) => e.type === 'retry').length, 2);
});

test('529 is surfaced after the retries are used up', async () => {
  fake.enqueue({ error: { kind: 'overloaded', times: 9 } });
  const { delays, options } = fastRetry();
  const { message } = await collect(provider(options), request(model(), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.equal(message.errorKind, 'overloaded');
  assert.equal(message.errorStatus, 529);
  assert.deepEqual(delays, [2000, 4000, 8000]);
  assert.equal(isContextOverflow(message, 1000), false);
});

test('429 with x-should-retry false is not retried; spend limit is quota', async () => {
  fake.enqueue({ error: { kind: 'rate_limit', shouldRetry: false, retryAfterSeconds: 1 } }, { error: { kind: 'quota' } });
  const { delays, options } = fastRetry();
  const a = await collect(provider(options), request(model(), [user('x')]));
  const b = await collect(provider(options), request(model(), [user('x')]));
  assert.equal(a.message.errorKind, 'rate_limit');
  assert.equal(b.message.errorKind, 'quota');
  assert.deepEqual(delays, []);
});

test('SSE error event mid-stream ends as error', async () => {
  fake.enqueue({ text: 'partial output here', chunkSize: 4, midStreamError: { afterChunks: 4, message: 'Overloaded' } });
  const { delays, options } = fastRetry();
  const { message } = await collect(provider(options), request(model(), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /Overloaded/);
  assert.deepEqual(delays, [], 'output was already streamed: no retry');
});

test('abort mid-stream yields aborted', async () => {
  fake.enqueue({ text: 'streaming slowly '.repeat(10), chunkSize: 4, delayMs: 15 });
  const controller = new AbortController();
  let final: AssistantMessage | undefined;
  let deltas = 0;
  for await (const e of provider().stream(request(model(), [user('x')], { signal: controller.signal }))) {
    if (e.type === 'text_delta' && ++deltas === 3) controller.abort();
    if (e.type === 'done') final = e.message;
  }
  assert.equal(final?.stopReason, 'aborted');
  assert.ok(textOf(final!).length > 0);
});

test('stream without message_stop is an error', async () => {
  fake.enqueue({ text: 'cut short', chunkSize: 3, endWithoutTerminal: 4 });
  const { message } = await collect(provider(), request(model(), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /message_stop/);
});

test('dropped socket and malformed SSE end as errors', async () => {
  fake.enqueue({ text: 'dropping', chunkSize: 3, dropAfterChunks: 4 }, { text: 'malformed', chunkSize: 3, malformedAfterChunks: 4 });
  const a = await collect(provider(), request(model(), [user('x')]));
  const b = await collect(provider(), request(model(), [user('x')]));
  assert.equal(a.message.stopReason, 'error');
  assert.equal(b.message.stopReason, 'error');
});

test('hanging stream times out', async () => {
  fake.enqueue({ text: 'hang here', chunkSize: 3, hangAfterChunks: 4 });
  const { message } = await collect(provider({ idleTimeoutMs: 150, retry: { sleep: async () => {} } }), request(model(), [user('x')]));
  assert.equal(message.stopReason, 'error');
  assert.match(message.errorMessage ?? '', /timed out/);
});

test('the key never appears in the log, events or errors (401 path too)', async () => {
  fake.configure({ apiKey: ANTHROPIC_KEY });
  fake.enqueue({ text: 'ok' });
  const good = await collect(provider(), request(model(), [user('x')]));
  assert.equal(fake.requests[0]!.auth, 'valid');
  const bad = await collect(createProvider(model(), keys({ anthropic: 'sk-ant-WRONG-0123456789abcdef' }), fastRetry().options), request(model(), [user('x')]));
  assert.equal(bad.message.errorKind, 'auth');
  const all = JSON.stringify({ log: fake.requests, good: good.events, bad: bad.events });
  assert.ok(!all.includes(ANTHROPIC_KEY));
  assert.ok(!all.includes('sk-ant-WRONG-0123456789abcdef'));
});

test('raw SDK: count_tokens matches the billed prompt, models.list, strict temperature rejection', async () => {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey: 'test', baseURL: fake.anthropicBaseUrl, maxRetries: 0 });
  const params = { model: 'fake-claude', messages: [{ role: 'user' as const, content: 'count these tokens please' }] };
  const counted = await client.messages.countTokens(params);
  fake.enqueue({ text: 'ok' });
  const msg = await client.messages.create({ ...params, max_tokens: 100 });
  assert.equal(counted.input_tokens, msg.usage.input_tokens);
  fake.setModel('fake-claude', { contextWindow: 1000 });
  const models = await client.models.list();
  assert.deepEqual(models.data.map((m) => m.id), ['fake-claude']);
  await assert.rejects(client.messages.create({ ...params, max_tokens: 10, temperature: 0.5 } as never), /temperature/);
});
