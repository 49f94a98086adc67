// The tool seam end to end through a real AgentSession (fake provider): the live tool list (a tool added or
// removed while a session runs is offered, listed and refused at the next request), and tools nobody here
// wrote (defineJsonTool) judged by their declared effect: approval defaults, restricted mode, sensitive
// paths and file checkpoints read the effect, never the name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildSystemPrompt } from '../../../src/agent/system-prompt';
import { createTools } from '../../../src/agent/tools';
import { defineJsonTool } from '../../../src/agent/tools/json-tool';
import { ToolRegistry } from '../../../src/agent/tools/tool-registry';
import { textOutput, type AgentTool, type ToolContext, type ToolEffect, type ToolOutput } from '../../../src/agent/tools/types';
import { applyRestore, checkpointStoreDir, openCheckpoints, planRestore } from '../../../src/checkpoints';
import { fileEntries, harness, ScriptedPrompter } from './session-helpers';

type Execute = (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutput>;

function outside(name: string, effect: ToolEffect, execute: Execute = async () => textOutput('ok')): AgentTool {
  return defineJsonTool({
    name,
    description: `${name} from a test server. Does what its name says.`,
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } },
    effect,
    origin: { kind: 'mcp', server: 'test', tool: name },
    execute,
  });
}

/** An outside tool that writes a file in the workspace and declares only `runs` (it may change anything). */
function scribe(): AgentTool {
  return outside('scribe', { kind: 'runs' }, async (args, ctx) => {
    const target = join(ctx.workspace.folders[0]!.path, String(args.path));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, String(args.text));
    return textOutput(`wrote ${String(args.path)}`);
  });
}

function registryWith(...tools: AgentTool[]): ToolRegistry {
  const registry = new ToolRegistry(createTools({ ripgrep: false }));
  registry.set('mcp:test', tools);
  return registry;
}

type Request = { body: { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] } };
const offered = (request: Request) => (request.body.tools ?? []).map((t) => t.function.name);
const systemText = (request: Request) => JSON.stringify(request.body.messages[0]);
const lastToolText = (request: Request) => JSON.stringify(request.body.messages.at(-1));

test('the tool list is live: added mid-run it is offered and listed at the next request; removed, it is gone and a call to it gets a clear error', async () => {
  const registry = registryWith();
  const lookup = outside('lookup', { kind: 'readOnly' }, async () => textOutput('found it'));
  registry.set('test:control', [
    outside('plug_in', { kind: 'readOnly' }, async () => (registry.set('mcp:late', [lookup]), textOutput('plugged in'))),
    outside('unplug', { kind: 'readOnly' }, async () => (registry.remove('mcp:late'), textOutput('unplugged'))),
  ]);
  const h = await harness({ deps: { tools: registry, systemPrompt: (input) => buildSystemPrompt(input) } });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'plug_in', input: {} }] },
    { toolCalls: [{ id: 'c2', name: 'lookup', input: {} }, { id: 'c3', name: 'unplug', input: {} }, { id: 'c4', name: 'lookup', input: {} }] },
    { text: 'done' },
  );
  await h.agent.prompt('use the tools');
  const [first, second, third] = h.llmRequests() as unknown as Request[];
  assert.ok(!offered(first!).includes('lookup'), 'not offered before it was added');
  assert.doesNotMatch(systemText(first!), /`lookup`/);
  assert.ok(offered(second!).includes('lookup'), 'offered at the request after it was added');
  assert.match(systemText(second!), /`lookup`: lookup from a test server\./, 'the system prompt lists it');
  assert.ok(!offered(third!).includes('lookup'), 'gone after it was removed');
  assert.doesNotMatch(systemText(third!), /`lookup`/);
  assert.match(lastToolText(third!), /no longer available: it was removed while you were working/);
  assert.deepEqual((await fileEntries(h.store)).filter((e) => e.startsWith('toolResult')), [
    'toolResult:plug_in', 'toolResult:lookup', 'toolResult:unplug', 'toolResult:lookup:error',
  ]);
});

test('an outside tool that runs asks like bash, and its file change is checkpointed by a full scan and restored', async () => {
  const prompter = new ScriptedPrompter();
  const h = await harness({ prompter, files: { 'keep.txt': 'kept\n' }, deps: { tools: registryWith(scribe()) } });
  const cp = await openCheckpoints(checkpointStoreDir(h.sessionDir), { folders: [{ name: 'ws', path: h.ws }] });
  const { AgentSession } = await import('../../../src/agent/agent-session');
  const deps = (h.agent as unknown as { deps: ConstructorParameters<typeof AgentSession>[0] }).deps;
  const agent = new AgentSession({ ...deps, checkpoints: cp.recorder });
  const before = h.store.getLeafId();
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'scribe', input: { path: 'notes/made.txt', text: 'from outside\n' } }] }, { text: 'written' });
  await agent.prompt('write a note');
  assert.equal(prompter.asked.length, 1, 'it asked before running');
  assert.equal(prompter.asked[0]!.toolName, 'scribe');
  assert.equal(await readFile(join(h.ws, 'notes/made.txt'), 'utf8'), 'from outside\n');
  assert.deepEqual(await fileEntries(h.store), ['user', 'assistant:toolUse', 'toolResult:scribe', 'custom', 'assistant:stop']);

  const plan = await planRestore(cp.files, h.store, h.store.getLeafId(), before);
  assert.deepEqual(plan.changes.map((c) => c.key), ['ws/notes/made.txt']);
  const outcome = await applyRestore(cp.files, h.sessionDir, plan, { overwrite: new Set() });
  assert.notEqual(outcome.kind, 'failed', JSON.stringify(outcome));
  await assert.rejects(readFile(join(h.ws, 'notes/made.txt')), 'restoring the node before the turn removes the file the tool made');
  assert.equal(await readFile(join(h.ws, 'keep.txt'), 'utf8'), 'kept\n');
});

test('restricted mode refuses an outside tool that runs, without asking, and does not offer it', async () => {
  const h = await harness({ trusted: false, deps: { tools: registryWith(scribe()) } });
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'scribe', input: { path: 'x.txt', text: 'no' } }] }, { text: 'refused' });
  await h.agent.prompt('write');
  assert.ok(!offered(h.llmRequests()[0] as unknown as Request).includes('scribe'));
  assert.equal(h.prompter.asked.length, 0);
  await assert.rejects(readFile(join(h.ws, 'x.txt')));
  assert.match(lastToolText(h.llmRequests()[1] as unknown as Request), /restricted mode/);
});

test('an outside writesFiles tool gets the protected-path warning for .git/hooks/x; an outside readOnly tool runs without asking', async () => {
  const put = outside('put', { kind: 'writesFiles', targets: (args) => (typeof args.path === 'string' ? [args.path] : []) }, async () => textOutput('put'));
  const peek = outside('peek', { kind: 'readOnly' }, async () => textOutput('peeked'));
  const prompter = new ScriptedPrompter([{ kind: 'deny' }]);
  const h = await harness({ prompter, deps: { tools: registryWith(put, peek) } });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'peek', input: {} }, { id: 'c2', name: 'put', input: { path: '.git/hooks/x', text: '#!/bin/sh' } }] },
    { text: 'ok' },
  );
  await h.agent.prompt('go');
  assert.equal(prompter.asked.length, 1, 'only the write asked');
  const [request] = prompter.asked;
  assert.equal(request!.toolName, 'put');
  assert.deepEqual(request!.warnings?.map((w) => w.kind), ['protectedPath']);
  assert.match(request!.warnings![0]!.message, /\.git\/hooks\/x/);
  assert.deepEqual((await fileEntries(h.store)).filter((e) => e.startsWith('toolResult')), ['toolResult:peek', 'toolResult:put:error']);
});

test('each request reads the live tool list once: the prompt and the request definitions share it, and the system prompt is built once a run while the tools stay the same', async () => {
  /** Counts the list reads for offering (a tool call's lookup by name reads it too, not counted). */
  class CountingRegistry extends ToolRegistry {
    lists = 0;
    private lookingUp = false;
    override list(): readonly AgentTool[] {
      if (!this.lookingUp) this.lists++;
      return super.list();
    }
    override get(name: string): AgentTool | undefined {
      this.lookingUp = true;
      try {
        return super.get(name);
      } finally {
        this.lookingUp = false;
      }
    }
  }
  const registry = new CountingRegistry(createTools({ ripgrep: false }));
  registry.set('mcp:test', [outside('lookup', { kind: 'readOnly' }, async () => textOutput('found it'))]);
  let prompts = 0;
  const h = await harness({ deps: { tools: registry, systemPrompt: (input) => (prompts++, buildSystemPrompt(input)) }, settings: { enabled: false } });
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'lookup', input: {} }] }, { toolCalls: [{ id: 'c2', name: 'lookup', input: {} }] }, { text: 'done' });
  registry.lists = 0;
  await h.agent.prompt('look it up twice');
  assert.equal(h.llmRequests().length, 3);
  assert.equal(prompts, 1, 'the system prompt is built once for the run');
  assert.equal(registry.lists, 3, 'one read of the tool list per request');
});

test('a file-writing call names its targets once: the protected-path check, auto-edit, edit feedback, checkpoints, nested instructions and the write share one resolution', async () => {
  let named = 0;
  const tools = createTools({ ripgrep: false }).map((tool) => {
    if (tool.name !== 'write' || tool.effect.kind !== 'writesFiles') return tool;
    const effect = tool.effect;
    return { ...tool, effect: { ...effect, targets: (args: Record<string, unknown>) => (named++, effect.targets(args)) } };
  });
  const feedbackPaths: string[][] = [];
  const h = await harness({
    files: { 'sub/AGENTS.md': 'Use tabs in sub.\n' },
    deps: { tools: new ToolRegistry(tools), editFeedback: { before: async (paths) => (feedbackPaths.push([...paths]), async () => undefined) } },
  });
  const cp = await openCheckpoints(checkpointStoreDir(h.sessionDir), { folders: [{ name: 'ws', path: h.ws }] });
  const { AgentSession } = await import('../../../src/agent/agent-session');
  const deps = (h.agent as unknown as { deps: ConstructorParameters<typeof AgentSession>[0] }).deps;
  const agent = new AgentSession({ ...deps, checkpoints: cp.recorder });
  await agent.setApprovalMode('autoEdit');
  const before = h.store.getLeafId();
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'write', input: { path: 'sub/new.txt', content: 'hello\n' } }] }, { text: 'written' });
  await agent.prompt('write a file');
  assert.equal(h.prompter.asked.length, 0, 'auto-edit ran it: its target was inside');
  assert.equal(await readFile(join(h.ws, 'sub/new.txt'), 'utf8'), 'hello\n');
  assert.equal(named, 1, 'targets named (and resolved) once for the whole call');
  assert.deepEqual(feedbackPaths, [[join(h.ws, 'sub/new.txt')]], 'edit feedback got the resolved path');
  assert.match(JSON.stringify(h.llmRequests()[1]!.body), /Use tabs in sub/, 'the nested AGENTS.md was added');
  const plan = await planRestore(cp.files, h.store, h.store.getLeafId(), before);
  assert.deepEqual(plan.changes.map((c) => c.key), ['ws/sub/new.txt'], 'the checkpoint recorded the write');
});
