import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RESTRICTED_MODE_REASON } from '../../../src/agent/approval';
import type { AgentEvent } from '../../../src/agent/events';
import { fileEntries, harness, pathEntries, requestText, ScriptedPrompter, waitFor } from './session-helpers';

const types = (events: AgentEvent[]) => events.map((e) => e.type);

test('multi-step tool use (OpenAI): read, then an approved edit, then a final answer', async () => {
  const h = await harness({ files: { 'notes.txt': 'hello world\n' } });
  h.fake.enqueue(
    { toolCalls: [{ id: 'call_read', name: 'read', input: { path: 'notes.txt' } }] },
    { text: 'Editing now.', toolCalls: [{ id: 'call_edit', name: 'edit', input: { path: 'notes.txt', oldText: 'world', newText: 'arbor' } }] },
    { text: 'Done: notes.txt now greets arbor.' },
  );
  await h.agent.prompt('Change world to arbor in notes.txt');

  assert.equal(await readFile(join(h.ws, 'notes.txt'), 'utf8'), 'hello arbor\n');
  assert.deepEqual(await fileEntries(h.store), [
    'user',
    'assistant:toolUse',
    'toolResult:read',
    'assistant:toolUse',
    'toolResult:edit',
    'assistant:stop',
  ]);
  const requests = h.llmRequests();
  assert.equal(requests.length, 3);
  // The second request carries the read result; the third the edit result.
  assert.match(requestText(requests[1]!), /hello world/);
  assert.equal(requests[1]!.body.messages.at(-1).role, 'tool');
  assert.equal(requests[2]!.body.messages.at(-1).tool_call_id, 'call_edit');
  // read runs without asking, edit asks once.
  assert.deepEqual(h.prompter.asked.map((r) => r.toolName), ['edit']);
  assert.deepEqual(h.prompter.asked[0]!.args, { path: 'notes.txt', oldText: 'world', newText: 'arbor' });
  const t = types(h.events);
  assert.equal(t[0], 'busy');
  assert.equal(t.at(-1), 'idle');
  assert.ok(t.indexOf('approval_request') < t.indexOf('approval_resolved'));
  const toolEnds = h.events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end');
  assert.deepEqual(toolEnds.map((e) => [e.toolName, e.status]), [['read', 'done'], ['edit', 'done']]);
  // Streamed text reached the UI as deltas.
  const deltas = h.events.filter((e) => e.type === 'message_delta' && e.kind === 'text').map((e) => (e as { delta: string }).delta).join('');
  assert.ok(deltas.includes('Done: notes.txt now greets arbor.'));
  assert.ok(h.events.some((e) => e.type === 'usage' && e.usage.contextTokens !== null && e.usage.contextTokens > 0));
});

test('parallel tool calls in one message (Anthropic) run in order, each result persisted', async () => {
  const h = await harness({ api: 'anthropic', files: { 'a.txt': 'ALPHA\n', 'b.txt': 'BETA\n' } });
  h.fake.enqueue(
    { toolCalls: [{ id: 'toolu_a', name: 'read', input: { path: 'a.txt' } }, { id: 'toolu_b', name: 'read', input: { path: 'b.txt' } }] },
    { text: 'Both files read.' },
  );
  await h.agent.prompt('Read a.txt and b.txt');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:read', 'toolResult:read', 'assistant:stop']);
  const results = h.store.getBranch().filter((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'toolResult');
  assert.deepEqual(results.map((e) => (e as unknown as { message: { toolCallId: string } }).message.toolCallId), ['toolu_a', 'toolu_b']);
  const second = h.llmRequests()[1]!;
  const last = second.body.messages.at(-1);
  assert.equal(last.role, 'user');
  const blocks = last.content.filter((b: { type: string }) => b.type === 'tool_result');
  assert.deepEqual(blocks.map((b: { tool_use_id: string }) => b.tool_use_id), ['toolu_a', 'toolu_b']);
  assert.match(JSON.stringify(blocks), /ALPHA[\s\S]*BETA/);
});

test('a tool error is a result the model sees, and the loop goes on', async () => {
  const h = await harness();
  h.fake.enqueue({ toolCalls: [{ id: 'call_missing', name: 'read', input: { path: 'nope.txt' } }] }, { text: 'That file does not exist.' });
  await h.agent.prompt('Read nope.txt');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:read:error', 'assistant:stop']);
  const toolMessage = h.llmRequests()[1]!.body.messages.at(-1);
  assert.equal(toolMessage.role, 'tool');
  assert.match(toolMessage.content, /nope\.txt/);
  assert.ok(!h.events.some((e) => e.type === 'error'));
});

test('a denied approval: the edit does not run and the model reads the denial with the feedback', async () => {
  const prompter = new ScriptedPrompter([{ kind: 'deny', feedback: 'leave that file alone' }]);
  const h = await harness({ files: { 'keep.txt': 'original\n' }, prompter });
  h.fake.enqueue(
    { toolCalls: [{ id: 'call_w', name: 'write', input: { path: 'keep.txt', content: 'overwritten' } }] },
    { text: 'Understood, I will not touch it.' },
  );
  await h.agent.prompt('Overwrite keep.txt');
  assert.equal(await readFile(join(h.ws, 'keep.txt'), 'utf8'), 'original\n');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:write:error', 'assistant:stop']);
  const toolMessage = h.llmRequests()[1]!.body.messages.at(-1);
  assert.match(toolMessage.content, /denied/);
  assert.match(toolMessage.content, /leave that file alone/);
  const resolved = h.events.find((e) => e.type === 'approval_resolved');
  assert.deepEqual(resolved, { type: 'approval_resolved', toolCallId: 'call_w', approved: false, answer: { kind: 'deny', feedback: 'leave that file alone' } });
  const end = h.events.find((e) => e.type === 'tool_end');
  assert.equal(end?.type === 'tool_end' && end.status, 'denied');
});

test('"always" approves later calls of the same tool without asking again', async () => {
  const prompter = new ScriptedPrompter([{ kind: 'approveAlways' }], { kind: 'deny' });
  const h = await harness({ prompter });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'write', input: { path: 'one.txt', content: '1' } }] },
    { toolCalls: [{ id: 'c2', name: 'write', input: { path: 'two.txt', content: '2' } }] },
    { text: 'Wrote both.' },
  );
  await h.agent.prompt('Write two files');
  assert.equal(prompter.asked.length, 1);
  assert.equal(await readFile(join(h.ws, 'two.txt'), 'utf8'), '2');
});

test('restricted (untrusted) mode: mutating tools are not offered, and a call anyway is refused without asking', async () => {
  const h = await harness({ trusted: false });
  h.fake.enqueue({ toolCalls: [{ id: 'call_b', name: 'bash', input: { command: 'echo pwned > pwned.txt' } }] }, { text: 'I cannot run commands here.' });
  await h.agent.prompt('Run a command');
  const offered = (h.llmRequests()[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
  assert.deepEqual(offered, ['find', 'grep', 'ls', 'read']);
  assert.equal(h.prompter.asked.length, 0);
  await assert.rejects(readFile(join(h.ws, 'pwned.txt')));
  const toolMessage = h.llmRequests()[1]!.body.messages.at(-1);
  assert.ok(toolMessage.content.includes(RESTRICTED_MODE_REASON));
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:bash:error', 'assistant:stop']);
});

test('an unknown tool name gets an error result listing the available tools', async () => {
  const h = await harness();
  h.fake.enqueue({ toolCalls: [{ id: 'c', name: 'teleport', input: {} }] }, { text: 'ok' });
  await h.agent.prompt('go');
  const toolMessage = h.llmRequests()[1]!.body.messages.at(-1);
  assert.match(toolMessage.content, /no tool named "teleport"/);
  assert.match(toolMessage.content, /read, write, edit, bash/);
});

test('messages typed while the agent works are queued, reported, and delivered after the turn', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'first answer, slowly', delayMs: 15, chunkSize: 2 }, { text: 'second answer' }, { text: 'third answer' });
  const run = h.agent.prompt('first question');
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(h.agent.busy, true);
  await h.agent.prompt('second question');
  await h.agent.prompt('third question');
  assert.deepEqual(h.agent.queuedMessages, ['second question', 'third question']);
  await run;
  await h.agent.whenIdle();
  const queuedEvents = h.events.filter((e): e is Extract<AgentEvent, { type: 'queued' }> => e.type === 'queued').map((e) => e.messages);
  assert.deepEqual(queuedEvents, [['second question'], ['second question', 'third question'], ['third question'], []]);
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:stop', 'user', 'assistant:stop', 'user', 'assistant:stop']);
  const users = h.store.getBranch().filter((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'user');
  assert.deepEqual(users.map((e) => (e as unknown as { message: { content: string } }).message.content), ['first question', 'second question', 'third question']);
  // The second request was sent only after the first reply was complete, and carries it.
  assert.match(requestText(h.llmRequests()[1]!), /first answer, slowly/);
  // One busy/idle pair for the whole run including the queue.
  assert.deepEqual(types(h.events).filter((t) => t === 'busy' || t === 'idle'), ['busy', 'idle']);
});

test('model and thinking-level changes are persisted as entries and used by the next request', async () => {
  const h = await harness({ api: 'anthropic' });
  h.fake.enqueue({ text: 'one' }, { thinking: 'pondering', text: 'two' });
  await h.agent.prompt('hello');
  await h.agent.setModel({ ...h.model, id: 'fake-claude-2', name: 'Fake Claude 2' });
  await h.agent.setThinkingLevel('high');
  await h.agent.setThinkingLevel('high'); // unchanged: no second entry
  await h.agent.prompt('again');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:stop', 'model_change', 'thinking_level_change', 'user', 'assistant:stop']);
  const [first, second] = h.llmRequests();
  assert.equal(first!.body.model, 'fake-claude');
  assert.equal(first!.body.thinking, undefined);
  assert.equal(second!.body.model, 'fake-claude-2');
  assert.ok(second!.body.thinking, 'the second request asks for thinking');
  assert.equal(h.agent.thinkingLevel, 'high');
  const context = h.store.buildContext();
  assert.deepEqual(context.model, { provider: 'anthropic', modelId: 'fake-claude-2' });
  assert.ok(h.events.some((e) => e.type === 'model_changed' && e.entryId !== undefined));
  assert.ok(h.events.some((e) => e.type === 'thinking_level_changed' && e.level === 'high'));
});

test('a model change made while busy is persisted between requests, not in the middle of a reply', async () => {
  const h = await harness();
  h.fake.enqueue({ toolCalls: [{ id: 'c', name: 'ls', input: {} }], delayMs: 10 }, { text: 'listed' });
  const run = h.agent.prompt('list');
  await waitFor(h.events, (e) => e.type === 'message_delta');
  await h.agent.setModel({ ...h.model, id: 'fake-gpt-2' });
  await run;
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:ls', 'model_change', 'assistant:stop']);
  assert.deepEqual(h.llmRequests().map((r) => r.body.model), ['fake-gpt', 'fake-gpt-2']);
});

test('a provider error ends the turn with a persisted error reply and an error event', async () => {
  const h = await harness();
  h.fake.enqueue({ error: { kind: 'auth' } });
  await h.agent.prompt('hello');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:error']);
  const error = h.events.find((e) => e.type === 'error');
  assert.ok(error && error.type === 'error' && /Invalid API key/.test(error.message));
});

test('transient errors are retried by the provider and reported as retry events', async () => {
  const h = await harness();
  h.fake.enqueue({ error: { kind: 'server' } }, { text: 'recovered' });
  await h.agent.prompt('hello');
  assert.ok(h.events.some((e) => e.type === 'retry' && e.attempt === 1));
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:stop']);
});

test('after tree navigation the next turn uses the new leaf; refreshFromStore tells the UI', async () => {
  const h = await harness();
  h.fake.enqueue({ text: 'answer A' }, { text: 'answer B' }, { text: 'answer C' });
  await h.agent.prompt('question A');
  const afterA = h.store.getLeafId()!;
  await h.agent.prompt('question B');
  h.store.branch(afterA);
  h.agent.refreshFromStore();
  assert.ok(h.events.some((e) => e.type === 'refreshed' && e.leafId === afterA));
  await h.agent.prompt('question C');
  const third = requestText(h.llmRequests()[2]!);
  assert.match(third, /question A/);
  assert.doesNotMatch(third, /question B/);
  assert.deepEqual(pathEntries(h.store), ['user', 'assistant:stop', 'user', 'assistant:stop']);
});

test('approvalPreview output reaches the prompter with the request', async () => {
  const h = await harness({ deps: { approvalPreview: async (tool, args) => ({ tool: tool.name, effect: tool.effect.kind, proposed: args.content }) } });
  h.fake.enqueue({ toolCalls: [{ id: 'c', name: 'write', input: { path: 'p.txt', content: 'NEW' } }] }, { text: 'written' });
  await h.agent.prompt('write p.txt');
  assert.deepEqual(h.prompter.asked[0]!.preview, { tool: 'write', effect: 'writesFiles', proposed: 'NEW' });
  assert.equal(await readFile(join(h.ws, 'p.txt'), 'utf8'), 'NEW');
});
