// The Responses API's output message ids and phases, both ways: pi 1.5/1.6 store a text block's
// `textSignature` as `{"v":1,"id":"msg_…","phase":"…"}` and older files (and Arbor before) the bare id;
// both must go back as the item id (never the whole JSON: the API caps ids at 64 characters), and the
// phase (`commentary` / `final_answer`) must be stored and sent back as pi does. Also the stream
// assembly when a reasoning item finishes after the message item (docs/architecture.md "OpenAI Responses").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toResponsesInput } from '../../../src/llm/convert-responses';
import { ResponsesStreamState, type ResponsesEvent } from '../../../src/llm/responses-stream';
import { MessageBuilder } from '../../../src/llm/message-builder';
import type { AssistantMessage } from '../../../src/core/messages';
import type { ModelInfo } from '../../../src/llm/types';

const model: ModelInfo = {
  provider: 'openai', id: 'gpt-5.5', name: 'GPT', api: 'openai-responses', contextWindow: 400_000,
  maxOutputTokens: 1000, reasoning: true, pricing: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
};

function reply(textSignature: string | undefined): AssistantMessage {
  return {
    role: 'assistant', api: model.api, provider: model.provider, model: model.id, stopReason: 'stop', timestamp: 1,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    content: [{ type: 'text', text: 'Checking the tool.', ...(textSignature === undefined ? {} : { textSignature }) }],
  };
}

function sentMessage(textSignature: string | undefined) {
  const items = toResponsesInput([{ role: 'user', content: 'q', timestamp: 0 }, reply(textSignature)], model);
  return items.find((i) => i.type === 'message' && i.role === 'assistant')!;
}

const ID = 'msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce';

test("pi's JSON textSignature goes back as the item id and phase, not as a 100-character id", () => {
  const item = sentMessage(JSON.stringify({ v: 1, id: ID, phase: 'commentary' }));
  assert.equal(item.id, ID);
  assert.equal(item.phase, 'commentary');
  assert.ok(String(item.id).length <= 64);
});

test('the plain textSignature (an item id) stays readable, with no phase', () => {
  const item = sentMessage('msg_plain_1');
  assert.equal(item.id, 'msg_plain_1');
  assert.equal('phase' in item, false);
});

test('a JSON textSignature with an unknown phase or version keeps only what is known', () => {
  const odd = sentMessage(JSON.stringify({ v: 1, id: ID, phase: 'debug' }));
  assert.equal(odd.id, ID);
  assert.equal('phase' in odd, false, 'only commentary and final_answer are sent');
  const v2 = sentMessage(JSON.stringify({ v: 2, id: ID }));
  assert.ok(String(v2.id ?? '').length <= 64, 'never a JSON text as the id');
});

test('an over-long id is never sent as the item id', () => {
  const item = sentMessage(`msg_${'x'.repeat(80)}`);
  assert.ok(item.id === undefined || String(item.id).length <= 64, `id ${String(item.id)}`);
});

function assemble(events: ResponsesEvent[]): AssistantMessage {
  const builder = new MessageBuilder(model);
  const state = new ResponsesStreamState(builder);
  for (const event of events) for (const _ of state.handle(event)) void _;
  return builder.finish('stop');
}

const completed: ResponsesEvent = { type: 'response.completed', response: { status: 'completed', usage: { input_tokens: 1, output_tokens: 1 } } };

test("a message item's phase is stored in pi's textSignature form", () => {
  const message = assemble([
    { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: ID, phase: 'final_answer' } as never },
    { type: 'response.output_text.delta', output_index: 0, delta: 'Done.' },
    { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: ID, phase: 'final_answer', content: [{ type: 'output_text', text: 'Done.' }] } as never },
    completed,
  ]);
  assert.deepEqual(message.content, [{ type: 'text', text: 'Done.', textSignature: JSON.stringify({ v: 1, id: ID, phase: 'final_answer' }) }]);
});

test('a reasoning item done after the message item gives [thinking+signature, text], as pi does', () => {
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'ENC' };
  const message = assemble([
    { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'Plan.' },
    { type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'msg_1' } },
    { type: 'response.output_text.delta', output_index: 1, delta: 'Answer.' },
    { type: 'response.output_item.done', output_index: 1, item: { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Answer.' }] } as never },
    { type: 'response.output_item.done', output_index: 0, item: reasoning },
    completed,
  ]);
  assert.deepEqual(message.content.map((b) => b.type), ['thinking', 'text']);
  const [thinking, text] = message.content as unknown as [{ thinking: string; thinkingSignature?: string }, { text: string }];
  assert.equal(thinking.thinking, 'Plan.');
  assert.deepEqual(JSON.parse(thinking.thinkingSignature!), reasoning);
  assert.equal(text.text, 'Answer.');
});
