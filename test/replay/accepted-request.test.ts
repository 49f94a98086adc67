// What Arbor sends back after a recorded gpt-5.5 turn (reasoning, a `commentary` message, a function
// call) against the request OpenAI accepted (HTTP 200) in the same public cassette
// (test/replay/accepted/SOURCES.json): every field of every assistant-side item OpenAI accepted must be
// in Arbor's next request with the same value, the message's `phase` included.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AssistantMessage, LlmMessage } from '../../src/core/messages';
import { createProvider } from '../../src/llm/registry';
import type { ModelInfo } from '../../src/llm/types';
import { FIXTURE_DIR } from './manifest';
import { ReplayServer } from './replay-server';

type Item = Record<string, unknown>;
const accepted = JSON.parse(readFileSync(join(__dirname, 'accepted', 'p-gpt55-phase-request2.json'), 'utf8')) as { input: Item[] };

let server: ReplayServer;
before(async () => {
  server = await ReplayServer.start();
});
after(async () => {
  await server.close();
});

async function run(model: ModelInfo, messages: LlmMessage[]): Promise<AssistantMessage> {
  const provider = createProvider(model, { getKey: async () => 'sk-replay-openai-0000000000' }, { idleTimeoutMs: 5000 });
  let message: AssistantMessage | undefined;
  for await (const event of provider.stream({ model, systemPrompt: 'Briefly narrate what you are about to do before calling each tool.', messages })) {
    if (event.type === 'done') message = event.message;
  }
  return message!;
}

/** The cassette's serializer wrote typographic quotes as ASCII ones; the stream has them as the model wrote them. */
const asciiQuotes = (text: unknown) => String(text).replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');

/** An item's fields as compared: a message's content by its text only (annotations are always empty). */
function comparable(item: Item): Item {
  if (item.type !== 'message' || !Array.isArray(item.content)) return item;
  return { ...item, content: (item.content as Item[]).map((c) => asciiQuotes(c.text)) };
}

test('the turn after a recorded gpt-5.5 tool call carries every field OpenAI accepted, phase included', async () => {
  const body = (name: string) => ({ status: 200, body: readFileSync(join(FIXTURE_DIR, name)) });
  server.load([body('oair-p-gpt55-phase-fc.sse'), body('oair-p-gpt55-phase-text.sse')], 5);
  const model: ModelInfo = {
    provider: 'openai', id: 'gpt-5.5', name: 'gpt-5.5', api: 'openai-responses', baseUrl: `${server.origin}/v1`,
    contextWindow: 400_000, maxOutputTokens: 2048, reasoning: true, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  };
  const question = { role: 'user' as const, content: 'What is the capital of PotatoLand?', timestamp: 0 };
  const reply = await run(model, [question]);
  const call = reply.content.find((b) => b.type === 'toolCall')!;
  const result = { role: 'toolResult' as const, toolCallId: call.id, toolName: call.name, content: [{ type: 'text' as const, text: 'Potato City' }], isError: false, timestamp: 1 };
  await run(model, [question, reply, result]);
  const sent = (server.requests.at(-1)!.body as { input: Item[] }).input.filter((i) => i.role !== 'user').map(comparable);
  const wanted = accepted.input.filter((i) => i.role !== 'user').map(comparable);
  assert.equal(sent.length, wanted.length, `items sent: ${JSON.stringify(sent.map((i) => i.type))}`);
  wanted.forEach((item, n) => {
    for (const [key, value] of Object.entries(item)) assert.deepEqual(sent[n]![key], value, `item ${n} (${String(item.type)}) field ${key}`);
  });
});
