// A request may keep its tools (for the provider's prompt cache) and still forbid calling them: the
// handoff document must be text. Checked on the wire for both APIs, and on the handoff request itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/llm/registry';
import { generateHandoff } from '../../../src/compaction/handoff';
import { FAKE_MODEL, FakeProvider } from '../compaction/fake-provider';
import { anthropicModel, collect, fastRetry, keys, openaiModel, request, useFakeLlm, user } from './helpers';

const fakeLlm = useFakeLlm();

const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

test('toolChoice none reaches the wire: OpenAI tool_choice "none", Anthropic {type: "none"}; absent by default', async () => {
  const fake = fakeLlm();
  fake.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
  await collect(createProvider(openaiModel(fake.openaiBaseUrl), keys(), fastRetry().options), request(openaiModel(fake.openaiBaseUrl), [user('x')], { tools, toolChoice: 'none' }));
  await collect(createProvider(anthropicModel(fake.anthropicBaseUrl), keys(), fastRetry().options), request(anthropicModel(fake.anthropicBaseUrl), [user('x')], { tools, toolChoice: 'none' }));
  await collect(createProvider(openaiModel(fake.openaiBaseUrl), keys(), fastRetry().options), request(openaiModel(fake.openaiBaseUrl), [user('x')], { tools }));
  assert.equal(fake.requests[0]!.body.tool_choice, 'none');
  assert.deepEqual(fake.requests[1]!.body.tool_choice, { type: 'none' });
  assert.equal(fake.requests[2]!.body.tool_choice, undefined);
  assert.equal(fake.requests[0]!.body.tools.length, 1, 'the tools stay in the request');
});

test('the handoff request keeps the live tools but forbids calling them', async () => {
  const provider = new FakeProvider(() => '## Goal\nDOC');
  const document = await generateHandoff({ systemPrompt: 'sys', messages: [], tools }, { provider, model: FAKE_MODEL });
  assert.equal(document, '## Goal\nDOC');
  assert.equal(provider.requests[0]!.toolChoice, 'none');
  assert.deepEqual(provider.requests[0]!.tools, tools);
});
