import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent/events';
import type { AssistantMessage, ToolResultMessage } from '../../../src/core/messages';
import { fileEntries, harness, ScriptedPrompter, waitFor, waitUntil } from './session-helpers';

function messages(h: { store: { getBranch(): unknown[] } }) {
  return h.store.getBranch().map((e) => (e as { message?: unknown }).message).filter(Boolean) as (AssistantMessage | ToolResultMessage)[];
}

test('stop mid-stream persists the partial reply as aborted (OpenAI)', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'The partial answer that never ends', chunkSize: 4, hangAfterChunks: 4 });
  const run = h.agent.prompt('talk');
  await waitFor(h.events, (e) => e.type === 'message_delta' && e.kind === 'text');
  const started = Date.now();
  assert.deepEqual(await h.agent.stop(), []);
  await run;
  assert.ok(Date.now() - started < 3000);
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:aborted']);
  const reply = messages(h)[1] as AssistantMessage;
  assert.equal(reply.stopReason, 'aborted');
  const text = reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  assert.ok(text.length > 0 && 'The partial answer that never ends'.startsWith(text), `partial text kept: ${text}`);
  assert.equal(h.agent.busy, false);
  assert.equal(h.events.at(-1)?.type, 'idle');
});

test('stop mid-stream with a tool call in progress (Anthropic): the call gets a skipped result, no orphan', async () => {
  const h = await harness({ api: 'anthropic' });
  h.fake.enqueue({ text: 'Let me run it.', toolCalls: [{ id: 'toolu_x', name: 'ls', input: { path: '.' } }], hangAfterChunks: 8 });
  const run = h.agent.prompt('list');
  await waitFor(h.events, (e) => e.type === 'message_delta' && e.kind === 'toolcall_start');
  await h.agent.stop();
  await run;
  const entries = await fileEntries(h.store);
  assert.deepEqual(entries, ['user', 'assistant:aborted', 'toolResult:ls:error']);
  const result = messages(h)[2] as ToolResultMessage;
  assert.equal(result.toolCallId, 'toolu_x');
  assert.match(JSON.stringify(result.content), /did not run/);
  // The next turn replays neither the aborted reply nor its result: no orphan either way.
  h.fake.enqueue({ text: 'fresh start' });
  await h.agent.prompt('again');
  const body = h.llmRequests().at(-1)!.body;
  assert.doesNotMatch(JSON.stringify(body.messages), /toolu_x/);
});

test('stop mid-tool kills bash, persists its result and skips the calls after it', async () => {
  const h = await harness();
  h.fake.enqueue({
    toolCalls: [
      { id: 'call_sleep', name: 'bash', input: { command: 'echo started; sleep 30; echo never' } },
      { id: 'call_after', name: 'ls', input: {} },
    ],
  });
  const run = h.agent.prompt('sleep');
  await waitFor(h.events, (e) => e.type === 'tool_update' && /started/.test(e.partialText));
  const started = Date.now();
  await h.agent.stop();
  await run;
  assert.ok(Date.now() - started < 4000, 'bash was killed, not waited for');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:bash:error', 'toolResult:ls:error']);
  const [, , bash, after] = messages(h) as ToolResultMessage[];
  assert.equal(bash!.toolCallId, 'call_sleep');
  assert.doesNotMatch(JSON.stringify(bash!.content), /never/);
  assert.equal(after!.toolCallId, 'call_after');
  assert.match(JSON.stringify(after!.content), /did not run: the user stopped the agent/);
  const ends = h.events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end').map((e) => e.status);
  assert.deepEqual(ends, ['aborted', 'skipped']);
  assert.equal(h.llmRequests().length, 1, 'no request after stop');
});

test('stop while waiting for approval: nothing runs, every call gets a result', async () => {
  const prompter = new ScriptedPrompter([], 'hang');
  const h = await harness({ prompter });
  h.fake.enqueue({ toolCalls: [{ id: 'w1', name: 'write', input: { path: 'x.txt', content: 'x' } }, { id: 'w2', name: 'write', input: { path: 'y.txt', content: 'y' } }] });
  const run = h.agent.prompt('write');
  await waitFor(h.events, (e) => e.type === 'approval_request');
  await h.agent.stop();
  await run;
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:write:error', 'toolResult:write:error']);
  assert.ok(h.events.some((e) => e.type === 'approval_resolved' && !e.approved && e.reason === 'stopped'));
});

test('stop returns queued messages instead of sending them', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'slow', hangAfterChunks: 1 });
  const run = h.agent.prompt('first');
  await waitFor(h.events, (e) => e.type === 'message_start' && e.role === 'assistant');
  // The reply starts before the request necessarily reached the server: stop only once it has.
  await waitUntil(() => h.llmRequests().length === 1, 5000, 'the first request');
  await h.agent.prompt('queued one');
  assert.deepEqual(await h.agent.stop(), [{ text: 'queued one', images: [] }]);
  await run;
  assert.deepEqual(h.agent.queuedMessages, []);
  assert.equal(h.llmRequests().length, 1);
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:aborted']);
});
