import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server.mjs';
import { detectContextWindow } from '../../../src/llm/context-window';
import { createProvider } from '../../../src/llm/registry';
import { DEMO_MODEL, configureDemoServer, demoReply, demoSummary, disposeDemoModel } from '../../../src/llm/demo';
import type { AssistantMessage, LlmMessage, ToolResultMessage } from '../../../src/core/messages';
import type { ToolDefinition } from '../../../src/llm/types';
import { collect, keys, textOf, user } from './helpers';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
  await disposeDemoModel();
});

for (const [discovery, size] of [['vllm', 32768], ['lmstudio', 8192], ['llamacpp', 4096], ['ollama', 131072]] as const) {
  test(`detectContextWindow reads what a ${discovery} server tells`, async () => {
    fake.reset();
    fake.configure({ discovery });
    fake.setModel('local-model', { contextWindow: size });
    const detected = await detectContextWindow(fake.openaiBaseUrl, { modelId: 'local-model' });
    assert.deepEqual(detected, { contextWindow: size, source: discovery });
  });
}

test('detectContextWindow returns undefined when the server does not say', async () => {
  fake.reset();
  assert.equal(await detectContextWindow(fake.openaiBaseUrl, { modelId: 'x' }), undefined);
  assert.equal(await detectContextWindow('http://127.0.0.1:1/v1', { timeoutMs: 300 }), undefined, 'unreachable server');
});

const TOOLS: ToolDefinition[] = ['read', 'write', 'edit', 'ls', 'find', 'grep', 'bash'].map((name) => ({ name, description: name, parameters: { type: 'object' } }));
const wireTools = TOOLS.map((t) => ({ function: { name: t.name } }));
const ask = (text: string) => demoReply({ messages: [{ role: 'user', content: text }], tools: wireTools });

test('demo script derives tool calls from the prompt', () => {
  assert.deepEqual(ask('read README.md').toolCalls, [{ name: 'read', arguments: { path: 'README.md' } }]);
  assert.deepEqual(ask('create hello.txt with Hello world').toolCalls, [{ name: 'write', arguments: { path: 'hello.txt', content: 'Hello world\n' } }]);
  assert.deepEqual(ask('edit hello.txt: replace "Hello" with "Goodbye"').toolCalls, [{ name: 'edit', arguments: { path: 'hello.txt', oldText: 'Hello', newText: 'Goodbye' } }]);
  assert.deepEqual(ask('list files').toolCalls, [{ name: 'ls', arguments: {} }]);
  assert.deepEqual(ask('list files in src').toolCalls, [{ name: 'ls', arguments: { path: 'src' } }]);
  assert.deepEqual(ask('find *.ts').toolCalls, [{ name: 'find', arguments: { pattern: '*.ts' } }]);
  assert.deepEqual(ask('grep TODO').toolCalls, [{ name: 'grep', arguments: { pattern: 'TODO' } }]);
  assert.deepEqual(ask('run `ls -la`').toolCalls, [{ name: 'bash', arguments: { command: 'ls -la' } }]);
  assert.equal(ask('what is the meaning of life').toolCalls.length, 0);
  assert.match(ask('hello').text, /Arbor Demo \(offline\)/);
  assert.equal(demoReply({ messages: [{ role: 'user', content: 'read README.md' }] }).toolCalls.length, 0, 'no tools offered: no calls');
});

test('demo summary has every section and is deterministic', () => {
  const conversation = '<conversation>\n[User]: Add a login page to src/app.ts. You must not use jQuery.\n\n[Assistant tool calls]: read(path="src/app.ts")\n\n[Tool result]: Error: file not found\n\n[User]: Then create src/login.ts\n</conversation>\n\nSummarize.';
  const a = demoSummary(conversation);
  assert.equal(a, demoSummary(conversation));
  for (const heading of ['## Goal', '## Constraints & Preferences', '## Progress', '### Done', '### In Progress', '### Blocked', '## Key Decisions', '## Next Steps', '## Critical Context']) {
    assert.ok(a.includes(heading), heading);
  }
  assert.match(a, /## Goal\nAdd a login page to src\/app\.ts/);
  assert.match(a, /must not use jQuery/);
  assert.match(a, /- \[x\] Ran `read\(path="src\/app.ts"\)`/);
  assert.match(a, /- \[ \] Then create src\/login\.ts/);
  assert.match(a, /Error: file not found/);
  assert.match(a, /`src\/login\.ts`/);
});

test('demo model end to end through the OpenAI-compatible provider: tool loop and summary', async () => {
  configureDemoServer({ chunkDelayMs: 0 });
  const provider = createProvider(DEMO_MODEL, keys({}));
  const base = { model: DEMO_MODEL, systemPrompt: 'You are Arbor.', tools: TOOLS };
  const first = await collect(provider, { ...base, messages: [user('read README.md')] });
  assert.equal(first.message.stopReason, 'toolUse');
  assert.equal(first.message.api, 'demo');
  assert.equal(first.message.provider, 'demo');
  assert.ok(first.events.some((e) => e.type === 'toolcall_delta'));
  const call = first.message.content.find((b) => b.type === 'toolCall')!;
  assert.deepEqual(call.arguments, { path: 'README.md' });
  assert.ok(first.message.usage.input > 10 && first.message.usage.output > 0, 'realistic usage');
  assert.equal(first.message.usageEstimated, undefined, 'the demo server reports usage');
  const result: ToolResultMessage = { role: 'toolResult', toolCallId: (call as { id: string }).id, toolName: 'read', content: [{ type: 'text', text: '# My Project\nIt does things.' }], isError: false, timestamp: Date.now() };
  const messages: LlmMessage[] = [user('read README.md'), first.message, result];
  const second = await collect(provider, { ...base, messages });
  assert.equal(second.message.stopReason, 'stop');
  assert.match(textOf(second.message), /# My Project/);
  const summary = await collect(provider, { model: DEMO_MODEL, systemPrompt: 'You are a context summarization assistant.', messages: [user('<conversation>\n[User]: read README.md\n</conversation>\n\nCreate a structured summary.')] });
  assert.match(textOf(summary.message as AssistantMessage), /## Goal\nread README\.md/);
});
