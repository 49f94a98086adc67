// The replay cases marked `"pi": true` (real OpenAI Responses streams from public test cassettes, see
// each manifest's `source`, and a few composed ones) against pi 1.6.0's own parse of the same bytes,
// recorded in test/replay/pi-1.6/ by scripts/make-pi-responses-fixtures.mjs. Arbor's assembled message
// must equal pi's block for block: text, thinking, both signatures, tool calls, token counts and stop
// reason. The deliberate differences are listed in DIFFERENCES with the reason; nothing else may differ.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantMessage } from '../../src/core/messages';
import { createProvider } from '../../src/llm/registry';
import type { ModelInfo } from '../../src/llm/types';
import { loadReplayCases, type ReplayCase } from './manifest';
import { ReplayServer } from './replay-server';

const PI_DIR = join(__dirname, 'pi-1.6');

interface PiBlock {
  type: string;
  text?: string;
  textSignature?: string;
  thinking?: string;
  thinkingSignature?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
}

interface PiParse {
  case: string;
  pi: string;
  message: {
    content: PiBlock[];
    usage: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning?: number; totalTokens: number };
    stopReason: string;
    errorMessage?: string;
  };
}

/**
 * Where Arbor deliberately differs from pi, per case and what differs. Each entry says why; the test
 * still checks everything else in that case.
 */
const DIFFERENCES: Record<string, { text?: string; why: string }> = {
  'oair-azure-multi-summary': {
    text: 'X',
    why: 'the fixture author replaced the streamed delta by "X" but not the done item\'s text. Arbor keeps the text it ' +
      'streamed to the user when the done item is not a continuation of it (a done item that extends it completes ' +
      'it, as in oair-gpt53codex-phase); pi replaces the streamed text by the done item\'s.',
  },
};

let server: ReplayServer;
before(async () => {
  server = await ReplayServer.start();
});
after(async () => {
  await server.close();
});

function modelFor(c: ReplayCase): ModelInfo {
  return {
    provider: 'openai', id: `replay-${c.name}`, name: c.name, api: 'openai-responses', baseUrl: `${server.origin}/v1`,
    contextWindow: 128_000, maxOutputTokens: 2048, reasoning: true,
    pricing: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
  };
}

async function arborParse(c: ReplayCase): Promise<AssistantMessage> {
  server.load(c.responses.slice(0, 1), 3);
  const model = modelFor(c);
  const provider = createProvider(model, { getKey: async () => 'sk-replay-openai-0000000000' }, { idleTimeoutMs: 5000, retry: { sleep: async () => {}, maxRetries: 0 } });
  let message: AssistantMessage | undefined;
  for await (const event of provider.stream({ model, systemPrompt: 'Replay.', messages: [{ role: 'user', content: 'hello', timestamp: 0 }] })) {
    if (event.type === 'done') message = event.message;
  }
  assert.ok(message, 'a done event');
  return message;
}

const parsedJson = (s: unknown) => (typeof s === 'string' && s ? JSON.parse(s) : s);

function assertBlock(name: string, i: number, arbor: AssistantMessage['content'][number], pi: PiBlock): void {
  const at = `${name} block ${i}`;
  assert.equal(arbor.type, pi.type, `${at}: type`);
  if (arbor.type === 'text') {
    assert.equal(arbor.text, DIFFERENCES[name]?.text ?? pi.text, `${at}: text`);
    assert.equal(arbor.textSignature, pi.textSignature, `${at}: textSignature`);
  } else if (arbor.type === 'thinking') {
    assert.equal(arbor.thinking, pi.thinking, `${at}: thinking`);
    assert.deepEqual(parsedJson(arbor.thinkingSignature), parsedJson(pi.thinkingSignature), `${at}: thinkingSignature`);
  } else {
    assert.deepEqual({ id: arbor.id, name: arbor.name, arguments: arbor.arguments }, { id: pi.id, name: pi.name, arguments: pi.arguments }, `${at}: tool call`);
  }
}

function assertUsage(name: string, arbor: AssistantMessage, pi: PiParse['message']): void {
  const { input, output, cacheRead, cacheWrite, totalTokens } = arbor.usage;
  const reasoning = arbor.usage.reasoning ?? 0;
  assert.deepEqual({ input, output, cacheRead, cacheWrite, reasoning, totalTokens }, { ...pi.usage, reasoning: pi.usage.reasoning ?? 0 }, `${name}: usage`);
}

/** A failed stream: both stop with an error naming the provider's own message. */
function assertError(name: string, arbor: AssistantMessage, pi: PiParse['message']): void {
  assert.equal(arbor.stopReason, 'error', `${name}: stopReason (Arbor: ${arbor.errorMessage})`);
  const providerText = (pi.errorMessage ?? '').replace(/^.*?"message":"([^"]+)".*$/s, '$1').replace(/^[a-z_]+: /, '').slice(0, 40);
  assert.ok(providerText.length > 10, `${name}: pi names an error (${pi.errorMessage})`);
  assert.ok((arbor.errorMessage ?? '').includes(providerText), `${name}: Arbor's error "${arbor.errorMessage}" lacks "${providerText}"`);
}

const cases = loadReplayCases().filter((c) => (c as ReplayCase & { pi?: boolean }).pi);

test('the pi-compared cases include every real Responses recording', () => {
  const recorded = cases.filter((c) => (c as ReplayCase & { source?: unknown }).source);
  assert.ok(recorded.length >= 18, `recorded cases: ${recorded.length}`);
});

for (const c of cases) {
  test(`${c.name} equals pi 1.6.0's parse of the same bytes`, async () => {
    const file = join(PI_DIR, `${c.name}.json`);
    assert.ok(existsSync(file), `missing ${file}: run scripts/make-pi-responses-fixtures.mjs (CONTRIBUTING.md)`);
    const pi = JSON.parse(readFileSync(file, 'utf8')) as PiParse;
    const arbor = await arborParse(c);
    if (pi.message.stopReason === 'error') return assertError(c.name, arbor, pi.message);
    assert.equal(arbor.stopReason, pi.message.stopReason, `${c.name}: stopReason (Arbor: ${arbor.errorMessage})`);
    assert.equal(arbor.content.length, pi.message.content.length, `${c.name}: blocks ${arbor.content.map((b) => b.type)} vs ${pi.message.content.map((b) => b.type)}`);
    arbor.content.forEach((block, i) => assertBlock(c.name, i, block, pi.message.content[i]!));
    assertUsage(c.name, arbor, pi.message);
  });
}
