// The `openai` provider on the Responses API against the fake server: the request body (stateless,
// encrypted reasoning asked for, instructions), a tool-call turn whose reasoning item and call ids go
// back on the next turn to the same model only, and the Chat Completions override per model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/llm/registry';
import { toResponsesInput } from '../../../src/llm/convert-responses';
import type { AssistantMessage } from '../../../src/core/messages';
import { collect, keys, openaiModel, request, user, useFakeLlm } from './helpers';

const fake = useFakeLlm();

function responsesModel(overrides = {}) {
  return openaiModel(fake().openaiBaseUrl, { api: 'openai-responses', reasoning: true, ...overrides });
}

test('a Responses turn: stateless body with encrypted reasoning, thinking and a tool call, usage with reasoning tokens', async () => {
  fake().enqueue({ thinking: 'Look at the notes first.', toolCalls: [{ id: 'call_notes', name: 'read', input: { path: 'notes.md' } }] });
  const model = responsesModel();
  const tools = [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
  const { message } = await collect(createProvider(model, keys()), request(model, [user('hi')], { tools, thinkingLevel: 'high' }));
  const sent = fake().requests.at(-1)!;
  assert.equal(sent.path, '/v1/responses');
  assert.equal(sent.body.store, false);
  assert.deepEqual(sent.body.include, ['reasoning.encrypted_content']);
  assert.deepEqual(sent.body.reasoning, { effort: 'high', summary: 'auto' });
  assert.equal(sent.body.instructions, 'You are a test assistant.');
  assert.equal(message.stopReason, 'toolUse');
  const thinking = message.content.find((b) => b.type === 'thinking')!;
  assert.equal(thinking.thinking, 'Look at the notes first.');
  assert.match(String(thinking.thinkingSignature), /"encrypted_content":"fake-reasoning:/);
  const call = message.content.find((b) => b.type === 'toolCall')!;
  assert.match(call.id, /^call_notes\|fc_/);
  assert.deepEqual(call.arguments, { path: 'notes.md' });
  assert.ok((message.usage.reasoning ?? 0) > 0, 'reasoning tokens kept');
});

function replyOf(model: { provider: string; api: string; id: string }): AssistantMessage {
  return {
    role: 'assistant', api: model.api, provider: model.provider, model: model.id, stopReason: 'toolUse', timestamp: 1,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    content: [
      { type: 'thinking', thinking: 'why', thinkingSignature: JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' }) },
      { type: 'text', text: 'Reading.', textSignature: 'msg_1' },
      { type: 'toolCall', id: 'call_1|fc_1', name: 'read', arguments: { path: 'a' } },
    ],
  };
}

test('reasoning items and item ids go back only to the model that wrote them', () => {
  const model = { provider: 'openai', api: 'openai-responses' as const, id: 'gpt-5' };
  const result = { role: 'toolResult' as const, toolCallId: 'call_1|fc_1', toolName: 'read', content: [{ type: 'text' as const, text: 'A' }], isError: false, timestamp: 2 };
  const same = toResponsesInput([user('q'), replyOf(model), result], model);
  assert.deepEqual(same.map((i) => i.type), ['message', 'reasoning', 'message', 'function_call', 'function_call_output']);
  assert.equal(same[1]!.encrypted_content, 'ENC');
  assert.equal(same[2]!.id, 'msg_1');
  assert.equal(same[3]!.id, 'fc_1');
  assert.equal(same[3]!.call_id, 'call_1');
  assert.equal(same[4]!.call_id, 'call_1');
  const other = toResponsesInput([user('q'), replyOf({ ...model, id: 'gpt-5-mini' }), result], model);
  assert.deepEqual(other.map((i) => i.type), ['message', 'message', 'function_call', 'function_call_output']);
  assert.equal(other[2]!.id, undefined, 'no item id for another model');
});

test('a model with api openai-completions still uses Chat Completions', async () => {
  fake().enqueue({ text: 'classic' });
  const model = openaiModel(fake().openaiBaseUrl);
  const { message } = await collect(createProvider(model, keys()), request(model, [user('hi')]));
  assert.equal(message.content.find((b) => b.type === 'text')?.text, 'classic');
  assert.equal(fake().requests.at(-1)!.path, '/v1/chat/completions');
});
