// Replay layer: every fixture in test/replay/fixtures is served by a loopback server in random-sized
// pieces to createProvider(…).stream(), and everything its manifest states is asserted: text, thinking,
// tool calls, usage, stop reason, error kind, overflow, number of requests and retry delays. Each case
// runs under two seeds; a failure names the case and the seed. Retry sleeps are injected (no real waits).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AssistantMessage, LlmMessage } from '../../src/core/messages';
import { createProvider } from '../../src/llm/registry';
import { isContextOverflow } from '../../src/llm/overflow';
import type { ModelInfo, StreamEvent } from '../../src/llm/types';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_DIR, loadReplayCases, type Expectation, type ReplayCase } from './manifest';
import { ReplayServer } from './replay-server';

const SEEDS = [7, 1337];
const KEYS: Record<string, string> = { openai: 'sk-replay-openai-0000000000', anthropic: 'sk-ant-replay-0000000000' };

let server: ReplayServer;
before(async () => {
  server = await ReplayServer.start();
});
after(async () => {
  await server.close();
});

function modelFor(c: ReplayCase): ModelInfo {
  const anthropic = c.api === 'anthropic-messages';
  const provider = anthropic ? 'anthropic' : c.api === 'openai-compatible' ? 'local' : 'openai';
  const reasoning = c.api === 'openai-responses';
  return {
    provider, id: `replay-${c.name}`, name: c.name, api: c.api,
    baseUrl: anthropic ? server.origin : `${server.origin}/v1`,
    contextWindow: c.contextWindow ?? 128_000, maxOutputTokens: 2048, reasoning,
    pricing: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
  };
}

interface Run {
  events: StreamEvent[];
  message: AssistantMessage;
  delays: number[];
}

async function stream(c: ReplayCase, messages: LlmMessage[]): Promise<Run> {
  const delays: number[] = [];
  const sleep = async (ms: number) => void delays.push(ms);
  const provider = createProvider(modelFor(c), { getKey: async (p) => KEYS[p] }, { idleTimeoutMs: 5000, retry: { sleep } });
  const events: StreamEvent[] = [];
  for await (const event of provider.stream({ model: modelFor(c), systemPrompt: 'Replay.', messages })) events.push(event);
  const done = events.filter((e) => e.type === 'done');
  assert.equal(done.length, 1, 'exactly one done event');
  assert.equal(events.at(-1)!.type, 'done', 'done comes last');
  return { events, message: (done[0] as { message: AssistantMessage }).message, delays };
}

const textOf = (m: AssistantMessage) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
const thinkingOf = (m: AssistantMessage) => m.content.map((b) => (b.type === 'thinking' ? b.thinking : '')).join('');
const toolCallsOf = (m: AssistantMessage) =>
  m.content.flatMap((b) => (b.type === 'toolCall' ? [{ id: b.id, name: b.name, arguments: b.arguments }] : []));

function assertUsage(message: AssistantMessage, expected: Expectation['usage']): void {
  if (expected === undefined) return;
  if (expected === 'estimated') {
    assert.equal(message.usageEstimated, true, 'usage is marked estimated');
    assert.ok(message.usage.input > 0 && message.usage.output > 0, 'estimated usage is non-zero');
    return;
  }
  const { input, output, cacheRead, cacheWrite } = message.usage;
  assert.deepEqual({ input, output, cacheRead, cacheWrite }, expected, 'usage');
  assert.equal(message.usage.totalTokens, input + output + cacheRead + cacheWrite, 'totalTokens');
  assert.ok(message.usage.cost.output > 0 || output === 0, 'output is priced');
}

function assertError(c: ReplayCase, message: AssistantMessage): void {
  const e = c.expect;
  assert.equal(message.errorKind ?? null, e.errorKind, `errorKind (message: ${message.errorMessage})`);
  if (e.errorIncludes !== undefined) assert.ok((message.errorMessage ?? '').includes(e.errorIncludes), `error message "${message.errorMessage}" lacks "${e.errorIncludes}"`);
  if (e.errorMessage !== undefined) assert.equal(message.errorMessage, e.errorMessage, 'error message');
  if (e.overflow !== undefined) assert.equal(isContextOverflow(message, c.contextWindow ?? 128_000), e.overflow, 'isContextOverflow');
  if (message.errorMessage) assert.ok(!Object.values(KEYS).some((k) => message.errorMessage!.includes(k)), 'no key in the error');
}

function assertStreamedEvents(run: Run): void {
  const streamedText = run.events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
  assert.equal(streamedText, textOf(run.message), 'text deltas add up to the final text');
  const retries = run.events.filter((e) => e.type === 'retry').length;
  assert.equal(retries, run.delays.length, 'one retry event per delay');
}

/** What the next request sends for the assistant turn: Anthropic content blocks, or Responses input items. */
function sentForAssistant(body: { messages?: { role: string; content: unknown }[]; input?: Record<string, unknown>[] }): Record<string, unknown>[] {
  if (body.input) return body.input.filter((item) => item.role !== 'user');
  const assistant = body.messages?.find((m) => m.role === 'assistant');
  assert.ok(Array.isArray(assistant?.content), 'assistant content is sent as blocks');
  return assistant.content as Record<string, unknown>[];
}

async function assertNextTurn(c: ReplayCase, first: AssistantMessage): Promise<void> {
  const wanted = c.expect.nextTurnSends;
  if (!wanted) return;
  const user = (text: string) => ({ role: 'user' as const, content: text, timestamp: 0 });
  await stream(c, [user('first'), first, user('second')]);
  const blocks = sentForAssistant(server.requests.at(-1)!.body as Parameters<typeof sentForAssistant>[0]);
  assert.ok(blocks.some((b) => Object.entries(wanted).every(([k, v]) => b[k] === v)), `next request carries ${JSON.stringify(wanted)}; sent ${JSON.stringify(blocks)}`);
}

for (const c of loadReplayCases()) {
  for (const seed of SEEDS) {
    test(`${c.name} (seed ${seed}): ${c.about}`, async () => {
      server.load(c.responses, seed);
      const run = await stream(c, [{ role: 'user', content: 'hello', timestamp: 0 }]);
      const { message } = run;
      const e = c.expect;
      assert.equal(server.requests.length, e.requests, `requests (error: ${message.errorMessage})`);
      assert.equal(message.stopReason, e.stopReason, `stopReason (error: ${message.errorMessage})`);
      assertError(c, message);
      assert.equal(textOf(message), e.text, 'text');
      assert.equal(thinkingOf(message), e.thinking ?? '', 'thinking');
      assert.deepEqual(toolCallsOf(message), e.toolCalls, 'tool calls');
      assertUsage(message, e.usage);
      if (e.reasoningTokens !== undefined) assert.equal(message.usage.reasoning, e.reasoningTokens, 'reasoning tokens');
      if (e.delays) assert.deepEqual(run.delays, e.delays, 'retry delays');
      assertStreamedEvents(run);
      await assertNextTurn(c, message);
    });
  }
}

test('every fixture body is used by a manifest, and there is a case per recorded shape', () => {
  const bodies = readdirSync(FIXTURE_DIR).filter((f) => !f.endsWith('.manifest.json'));
  const manifests = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.manifest.json'));
  const used = new Set(manifests.flatMap((f) => JSON.parse(readFileSync(join(FIXTURE_DIR, f), 'utf8')).responses.map((r: { body: string }) => r.body)));
  assert.deepEqual(bodies.filter((b) => !used.has(b)), [], 'unused fixture bodies');
  assert.ok(manifests.length >= 40, `at least 40 cases (got ${manifests.length})`);
});
