import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createEditFeedback, newErrors, type EditFeedback } from '../../../src/agent/tools/editor/after-edit';
import { diag, FakeKnowledge } from '../tools/editor-fake';
import { harness } from './session-helpers';

function resultTexts(h: Awaited<ReturnType<typeof harness>>, toolName: string): string[] {
  return h.events.flatMap((e) => (e.type === 'tool_end' && e.toolName === toolName ? [e.result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')] : []));
}

async function run(enabled: boolean) {
  const knowledge = new FakeKnowledge();
  // the harness makes the workspace folder: the feedback is built for it once it exists
  let inner: EditFeedback | undefined;
  const h = await harness({ files: { 'src/a.ts': 'const n: number = 1;\n' }, deps: { editFeedback: { before: (paths) => inner!.before(paths) } } });
  inner = createEditFeedback(knowledge, { workspace: { folders: [{ name: 'ws', path: h.ws }] }, enabled: () => enabled });
  const file = join(h.ws, 'src/a.ts');
  // an error that was there before the edit (on another line after it), one the edit causes, and a warning
  knowledge.diagnosticsList = [diag(file, 5, 'Old problem')];
  knowledge.afterEdit = [diag(file, 6, 'Old problem'), diag(file, 0, "Type 'string' is not assignable to type 'number'.", 'error', '2322'), diag(file, 0, 'just a warning', 'warning')];
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'read', input: { path: 'src/a.ts' } }] },
    { toolCalls: [{ id: 'c2', name: 'edit', input: { path: 'src/a.ts', oldText: '= 1', newText: '= "1"' } }] },
    { text: 'done' },
  );
  await h.agent.prompt('break it');
  return { h, knowledge };
}

test('after an edit the tool result ends with the new errors in the edited file, and the model reads them', async () => {
  const { h, knowledge } = await run(true);
  const [edited] = resultTexts(h, 'edit');
  assert.match(edited!, /Problems after this edit \(1 new error reported by the editor's language server\):\nsrc\/a\.ts:1:3: error: Type 'string' is not assignable to type 'number'\. \[ts 2322\]\n\(1 error that was there before this edit remains\.\)/);
  assert.doesNotMatch(edited!, /just a warning/);
  assert.doesNotMatch(resultTexts(h, 'read')[0]!, /Problems after/, 'a read-only tool gets no note');
  assert.deepEqual(knowledge.calls.filter((c) => c.method === 'settledDiagnostics').map((c) => c.paths), [[join(h.ws, 'src/a.ts')]]);
  const lastRequest = JSON.stringify(h.llmRequests().at(-1)!.body);
  assert.match(lastRequest, /Problems after this edit/);
});

test('with the setting off no note is added and the language server is not waited for', async () => {
  const { h, knowledge } = await run(false);
  assert.doesNotMatch(resultTexts(h, 'edit')[0]!, /Problems after/);
  assert.equal(knowledge.calls.filter((c) => c.method === 'settledDiagnostics').length, 0);
});

test('a failing host adds nothing and the edit still succeeds', async () => {
  const knowledge = new FakeKnowledge();
  knowledge.settledDiagnostics = async () => {
    throw new Error('language server crashed');
  };
  const h = await harness({ files: { 'a.ts': 'x\n' }, deps: { editFeedback: createEditFeedback(knowledge, { workspace: { folders: [] }, enabled: () => true }) } });
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'write', input: { path: 'a.ts', content: 'y\n' } }] }, { text: 'ok' });
  await h.agent.prompt('write');
  const end = h.events.find((e) => e.type === 'tool_end' && e.toolName === 'write');
  assert.ok(end && end.type === 'tool_end' && end.status === 'done' && !end.result.isError);
  assert.doesNotMatch(resultTexts(h, 'write')[0]!, /Problems/);
});

test('newErrors matches by file, message and code, not by line (an edit moves lines)', () => {
  const before = [diag('/a', 3, 'A'), diag('/a', 4, 'A'), diag('/b', 1, 'B')];
  const after = [diag('/a', 9, 'A'), diag('/a', 10, 'A'), diag('/a', 11, 'A'), diag('/b', 1, 'C')];
  assert.deepEqual(newErrors(before, after).map((d) => `${d.path}:${d.range.start.line}:${d.message}`), ['/a:11:A', '/b:1:C']);
});
