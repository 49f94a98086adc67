// Retry on any reply: a failed reply is asked again from the entry before it; any other reply from the user
// message that started its turn (the whole turn again), optionally after switching the model; refused while
// the agent works or for what is not a reply of this session. The earlier reply stays in the file.
import { done } from '../../../src/app/app-outcome';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessage } from '../../../src/core/messages';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { retryReply, type RetryApp } from '../../../src/app/retry-reply';
import type { AgentSession } from '../../../src/agent';

const assistant = (content: Extract<AgentMessage, { role: 'assistant' }>['content'], stopReason: 'stop' | 'toolUse' | 'error' = 'stop'): AgentMessage => ({
  role: 'assistant', content, api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason, timestamp: Date.now(),
});

async function session() {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-retry-'));
  const store = await SessionStore.create({ dir, cwd: dir });
  const messages: AgentMessage[] = [
    { role: 'user', content: 'FIRST', timestamp: Date.now() },
    assistant([{ type: 'text', text: 'FIRST-ANSWER' }]),
    { role: 'user', content: 'TOOLS', timestamp: Date.now() },
    assistant([{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a.md' } }], 'toolUse'),
    { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'A' }], isError: false, timestamp: Date.now() },
    assistant([], 'error'),
  ];
  const ids: string[] = [];
  for (const message of messages) ids.push((await store.appendMessage(message)).id);
  const calls: string[] = [];
  const agent = { retryFromLeaf: async () => void calls.push(`run from ${store.getLeafId()}`) } as unknown as AgentSession;
  const app: RetryApp & { working: boolean } = {
    working: false,
    get busy() { return this.working; },
    models: { currentKey: 'fake/fake-1', set: async (key) => { calls.push(`model ${key}`); return done(); } },
    currentStore: store,
    currentAgent: agent,
    tree: { branchAt: async (id: string) => { calls.push(`leaf ${id}`); store.branch(id); return done(); } },
  };
  return { store, ids, calls, app };
}

test('a reply that did not fail is asked again from the user message that started its turn', async () => {
  const { ids, calls, app } = await session();
  assert.deepEqual(await retryReply(app, ids[1]!), done({ from: ids[0] }));
  assert.deepEqual(calls, [`leaf ${ids[0]}`, `run from ${ids[0]}`]);
  calls.length = 0;
  assert.deepEqual(await retryReply(app, ids[3]!), done({ from: ids[2] }), 'a tool-calling reply: its whole turn again');
});

test('a failed reply is asked again from the entry before it, keeping the work of its turn', async () => {
  const { ids, calls, app } = await session();
  assert.deepEqual(await retryReply(app, ids[5]!), done({ from: ids[4] }));
  assert.deepEqual(calls, [`leaf ${ids[4]}`, `run from ${ids[4]}`]);
});

test('with another model, the model is switched on the new branch before the model is asked', async () => {
  const { ids, calls, app } = await session();
  await retryReply(app, ids[1]!, { model: 'openai/gpt-5' });
  assert.deepEqual(calls, [`leaf ${ids[0]}`, 'model openai/gpt-5', `run from ${ids[0]}`]);
  calls.length = 0;
  await retryReply(app, ids[1]!, { model: 'fake/fake-1' });
  assert.deepEqual(calls, [`leaf ${ids[0]}`, `run from ${ids[0]}`], 'the same model: no model change on the branch');
});

test('refused while the agent works, and for a user message or an unknown entry; nothing moves', async () => {
  const { ids, calls, app } = await session();
  app.working = true;
  assert.equal((await retryReply(app, ids[1]!)).kind, 'refused');
  app.working = false;
  assert.equal((await retryReply(app, ids[0]!)).kind, 'refused');
  assert.equal((await retryReply(app, 'nope')).kind, 'refused');
  assert.deepEqual(calls, []);
});

test('a retry refusal is an AppOutcome refusal with its reason, told like every other (#29 item 3)', async () => {
  const { ids, calls, app } = await session();
  app.working = true;
  assert.equal(reasonOf(await retryReply(app, ids[1]!)), 'busy');
  app.working = false;
  assert.equal(reasonOf(await retryReply(app, ids[0]!)), 'not-a-reply');
  const unknown = await retryReply(app, 'nope');
  assert.equal(reasonOf(unknown), 'unknown-entry');
  assert.equal((unknown as { message?: string }).message, 'Unknown entry "nope": it is not in this session.', 'the one text of an unknown entry');
  assert.deepEqual(calls, []);
});

function reasonOf(outcome: unknown): unknown {
  return (outcome as { reason?: unknown }).reason;
}
