// Approval modes through a real AgentSession (fake provider): Plan offers only tools that read, tells the
// model to plan and refuses a write anyway; Auto-edit runs writes inside the workspace without asking but
// still asks for commands and protected files; Restricted Mode wins; the mode is recorded in the session
// (never between a reply and its tool results) and a reopened session has it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentSession } from '../../../src/agent/agent-session';
import { buildSystemPrompt } from '../../../src/agent/system-prompt';
import { APPROVAL_MODE_CUSTOM_TYPE } from '../../../src/core/approval-modes';
import { fileEntries, harness, ScriptedPrompter } from './session-helpers';

type Request = { body: { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] } };
const offered = (request: unknown) => ((request as Request).body.tools ?? []).map((t) => t.function.name).sort();
const system = (request: unknown) => JSON.stringify((request as Request).body.messages[0]);
const modeEntries = (h: { store: { getEntries(): { type: string; customType?: string; data?: unknown }[] } }) =>
  h.store.getEntries().filter((e) => e.type === 'custom' && e.customType === APPROVAL_MODE_CUSTOM_TYPE).map((e) => (e.data as { mode: string }).mode);

test('Plan: only tools that read are offered, the prompt says to plan, and a write anyway is refused without asking', async () => {
  const h = await harness({ deps: { systemPrompt: (input) => buildSystemPrompt(input) } });
  await h.agent.setApprovalMode('plan');
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'write', input: { path: 'a.txt', content: 'x' } }] }, { text: '## Goal\nA plan.' });
  await h.agent.prompt('plan a change');
  const [first, second] = h.llmRequests();
  assert.deepEqual(offered(first), ['find', 'grep', 'ls', 'read']);
  assert.match(system(first), /## Plan mode/);
  assert.match(system(first), /## Risks and open questions/, 'the plan template is in the prompt');
  assert.equal(h.prompter.asked.length, 0);
  await assert.rejects(readFile(join(h.ws, 'a.txt')));
  assert.match(JSON.stringify((second as Request).body.messages.at(-1)), /Plan mode: only tools that read are allowed/);
  assert.deepEqual(modeEntries(h), ['plan'], 'recorded with the first message (an empty chat writes no file)');
  assert.deepEqual((await fileEntries(h.store)).slice(0, 3), ['user', 'custom', 'assistant:toolUse']);
});

test('Auto-edit: a write inside the workspace runs without asking; a command and a protected file still ask; Ask asks again', async () => {
  const prompter = new ScriptedPrompter([], { kind: 'deny' });
  const h = await harness({ prompter });
  await h.agent.setApprovalMode('autoEdit');
  h.fake.enqueue(
    { toolCalls: [
      { id: 'c1', name: 'write', input: { path: 'src/ok.txt', content: 'auto' } },
      { id: 'c2', name: 'edit', input: { path: 'src/ok.txt', oldText: 'auto', newText: 'auto-edited' } },
      { id: 'c3', name: 'bash', input: { command: 'echo hi > cmd.txt' } },
      { id: 'c4', name: 'write', input: { path: '.vscode/settings.json', content: '{}' } },
      { id: 'c5', name: 'write', input: { path: '../outside.txt', content: 'no' } },
    ] },
    { text: 'done' },
  );
  await h.agent.prompt('change things');
  assert.equal(await readFile(join(h.ws, 'src/ok.txt'), 'utf8'), 'auto-edited');
  assert.deepEqual(prompter.asked.map((r) => r.toolName), ['bash', 'write', 'write'], 'the command, the protected file and the write it cannot place asked');
  assert.deepEqual(prompter.asked[1]!.warnings?.map((w) => w.kind), ['protectedPath']);
  await assert.rejects(readFile(join(h.ws, 'cmd.txt')));
  await h.agent.setApprovalMode('ask');
  h.fake.enqueue({ toolCalls: [{ id: 'c6', name: 'write', input: { path: 'src/ok.txt', content: 'again' } }] }, { text: 'ok' });
  await h.agent.prompt('once more');
  assert.equal(prompter.asked.at(-1)!.toolName, 'write', 'back in Ask, the write asks');
  assert.deepEqual(modeEntries(h), ['autoEdit', 'ask']);
});

test('Restricted Mode wins over Auto-edit: the write is refused, not asked', async () => {
  const h = await harness({ trusted: false });
  await h.agent.setApprovalMode('autoEdit');
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'write', input: { path: 'a.txt', content: 'x' } }] }, { text: 'ok' });
  await h.agent.prompt('write');
  assert.equal(h.prompter.asked.length, 0);
  await assert.rejects(readFile(join(h.ws, 'a.txt')));
  assert.match(JSON.stringify((h.llmRequests()[1] as Request).body.messages.at(-1)), /restricted mode/);
});

test('a mode picked while a turn runs applies to the next call, is written between requests, and a reopened session has it', async () => {
  const prompter = new ScriptedPrompter([], 'hang');
  const h = await harness({ prompter });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'read', input: { path: 'missing.txt' } }] },
    { toolCalls: [{ id: 'c2', name: 'write', input: { path: 'b.txt', content: 'auto' } }] },
    { text: 'done' },
  );
  let switched = false;
  h.agent.onEvent((event) => {
    if (event.type === 'tool_end' && event.toolCallId === 'c1' && !switched) {
      switched = true;
      void h.agent.setApprovalMode('autoEdit');
    }
  });
  await h.agent.prompt('go');
  assert.equal(prompter.asked.length, 0, 'the write after the switch ran without asking');
  assert.equal(await readFile(join(h.ws, 'b.txt'), 'utf8'), 'auto');
  const shapes = await fileEntries(h.store);
  assert.deepEqual(shapes, ['user', 'assistant:toolUse', 'toolResult:read:error', 'custom', 'assistant:toolUse', 'toolResult:write', 'assistant:stop']);
  const deps = (h.agent as unknown as { deps: ConstructorParameters<typeof AgentSession>[0] }).deps;
  const reopened = new AgentSession({ ...deps, approvalMode: 'plan' });
  assert.equal(reopened.mode, 'autoEdit', 'the recorded mode, not the new-chat default');
});
