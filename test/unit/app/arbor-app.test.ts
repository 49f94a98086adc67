import { test } from 'node:test';
import { accepted, refusal } from './outcome';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appHarness, ScriptedPrompter } from './helpers';

async function fileLines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
}

test('no session until the first prompt; prompt → reply persisted → snapshot shows the conversation', async () => {
  const h = await appHarness();
  assert.equal(h.app.snapshot().session, null);
  h.fake.enqueue({ text: 'Hello from the fake model.' });
  const outcome = await h.app.prompt('Say hello');
  assert.deepEqual(outcome, { kind: 'sent' });
  const snap = h.app.snapshot();
  assert.ok(snap.session?.persisted);
  assert.deepEqual(snap.conversation.map((e) => [e.kind, e.text]), [['user', 'Say hello'], ['assistant', 'Hello from the fake model.']]);
  assert.equal(snap.model.key, 'openai/fake-gpt');
  assert.equal(snap.tree!.length, 2);
  assert.deepEqual(snap.tree!.map((n) => [n.kind, n.isOnActivePath, n.isLeaf, n.childCount]), [['user', true, false, 1], ['assistant', true, true, 0]]);
  const lines = await fileLines(snap.session!.file);
  assert.equal(lines[0]!.type, 'session');
  const messages = lines.filter((l) => l.type === 'message').map((l) => (l.message as { role: string }).role);
  assert.deepEqual(messages, ['user', 'assistant']);
  // incremental events: each appended entry came as a conversation append and a tree delta
  const appended = h.changes.filter((c) => c.kind === 'conversation' && !c.reset).flatMap((c) => (c.kind === 'conversation' ? c.appended.map((e) => e.kind) : []));
  assert.deepEqual(appended, ['user', 'assistant']);
  const treeAdds = h.changes.filter((c) => c.kind === 'tree').flatMap((c) => (c.kind === 'tree' ? c.added.map((n) => n.kind) : []));
  assert.deepEqual(treeAdds, ['user', 'assistant']);
  assert.ok(h.changes.some((c) => c.kind === 'agent' && c.event.type === 'message_delta'));
  assert.ok(h.changes.some((c) => c.kind === 'usage'));
});

test('tool calls pair with their results; an approved edit changes the file, a denied one does not', async () => {
  const prompter = new ScriptedPrompter([{ kind: 'approve' }, { kind: 'deny', feedback: 'no thanks' }]);
  const h = await appHarness({ files: { 'a.txt': 'one\n' }, prompter });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'edit', input: { path: 'a.txt', oldText: 'one', newText: 'two' } }] },
    { toolCalls: [{ id: 'c2', name: 'write', input: { path: 'a.txt', content: 'three\n' } }] },
    { text: 'Done.' },
  );
  await h.app.prompt('edit it');
  assert.equal(await readFile(join(h.ws, 'a.txt'), 'utf8'), 'two\n');
  assert.deepEqual(prompter.asked.map((r) => r.toolName), ['edit', 'write']);
  const preview = prompter.asked[0]!.preview as { kind: string; original: string; proposed: string };
  assert.deepEqual([preview.kind, preview.original, preview.proposed], ['fileChange', 'one\n', 'two\n']);
  const conv = h.app.snapshot().conversation;
  const calls = conv.filter((e) => e.kind === 'assistant').flatMap((e) => e.toolCalls ?? []);
  const results = conv.filter((e) => e.kind === 'toolResult');
  assert.equal(calls.length, 2);
  assert.equal(calls[0]!.resultEntryId, results[0]!.id);
  assert.equal(calls[1]!.isError, true);
  assert.equal(results[1]!.callEntryId, conv.find((e) => e.toolCalls?.some((c) => c.id === 'c2'))!.id);
});

test('slash commands: /tree and /model without args are UI intents; /model sets; unknown model is refused; /new starts a session', async () => {
  const h = await appHarness();
  assert.deepEqual(await h.app.prompt('/tree'), { kind: 'intent', intent: 'showTree' });
  assert.deepEqual(await h.app.prompt('/model'), { kind: 'intent', intent: 'pickModel' });
  const bad = await h.app.prompt('/model nope/none');
  assert.equal(bad.kind, 'refused');
  const changed = await h.app.prompt('/model openai/gpt-5-mini');
  assert.equal(changed.kind, 'modelChanged');
  assert.equal(h.app.snapshot().model.key, 'openai/gpt-5-mini');
  await h.app.prompt('/model openai/fake-gpt');
  h.fake.enqueue({ text: 'first' });
  await h.app.prompt('hi');
  const first = h.app.snapshot().session!.file;
  const created = await h.app.prompt('/new');
  assert.equal(created.kind, 'newSession');
  assert.notEqual(h.app.snapshot().session!.file, first);
  assert.deepEqual(h.app.snapshot().conversation, []);
  const noSession = await h.app.prompt('/compact');
  assert.equal(noSession.kind, 'refused', 'nothing to compact is a refusal, not an error');
  // a slash word that is not a command goes to the model
  h.fake.enqueue({ text: 'ok' });
  assert.deepEqual(await h.app.prompt('/etc/hosts is a file'), { kind: 'sent' });
});

test('navigate to an earlier user message returns its text; with a summary a branch_summary joins the path', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'A1' }, { text: 'A2' });
  await h.app.prompt('first question');
  await h.app.prompt('second question');
  const conv = h.app.snapshot().conversation;
  const second = conv.find((e) => e.text === 'second question')!;
  const plain = accepted(await h.app.tree.navigate(second.id));
  assert.equal(plain.editorText, 'second question');
  assert.deepEqual(h.app.snapshot().conversation.map((e) => e.text), ['first question', 'A1']);
  const offPath = h.app.snapshot().tree!.filter((n) => !n.isOnActivePath).map((n) => n.firstLine);
  assert.deepEqual(offPath, ['second question', 'A2']);
  // back to the tip of the abandoned branch, then leave it with a summary
  const a2 = h.app.snapshot().tree!.find((n) => n.firstLine === 'A2')!;
  await h.app.tree.navigate(a2.id);
  const summaryText = '## Goal\nSecond question explored.\n\n## Progress\nAnswered.';
  h.fake.enqueue({ text: summaryText });
  const first = h.app.snapshot().conversation.find((e) => e.text === 'A1')!;
  const result = accepted(await h.app.tree.navigate(first.id, { summarize: true, customInstructions: 'focus on answers' }));
  assert.ok(result.summaryEntry);
  const after = h.app.snapshot().conversation;
  assert.deepEqual(after.map((e) => e.kind), ['user', 'assistant', 'branch_summary']);
  assert.match(after[2]!.text, /Second question explored/);
  assert.ok(h.changes.some((c) => c.kind === 'conversation' && c.reset));
  refusal(await h.app.tree.navigate('nope'), 'unknown-entry', /Unknown entry/);
});

test('compact via /compact writes a compaction entry with metadata; label and fork', async () => {
  const h = await appHarness({ raw: { compaction: { keepRecentTokens: 50 } } });
  const long = 'lorem '.repeat(100);
  // the bulk in the replies: what the user wrote is kept verbatim, so only replies can shrink the context
  for (let i = 0; i < 4; i++) h.fake.enqueue({ text: `answer ${i} ${long}` });
  for (let i = 0; i < 4; i++) await h.app.prompt(`question ${i}`);
  assert.ok(h.app.compaction.preview());
  const sections = ['Goal', 'Constraints & Preferences', 'Progress', 'Key Decisions', 'Next Steps', 'Critical Context'];
  h.fake.enqueue({ text: sections.map((s) => `## ${s}\n${s === 'Progress' ? 'Four answers.' : '-'}`).join('\n\n') }, { text: 'We tested.' });
  const outcome = await h.app.prompt('/compact focus on tests');
  assert.equal(outcome.kind, 'compacted', JSON.stringify(outcome));
  const marker = h.app.snapshot().conversation.find((e) => e.kind === 'compaction')!;
  assert.ok(marker.tokensBefore! > 0);
  assert.equal(marker.reason, 'manual');
  assert.match(marker.text, /Four answers/);
  const user = h.app.snapshot().conversation.find((e) => e.kind === 'user')!;
  await h.app.tree.label(user.id, 'start');
  assert.equal(h.app.snapshot().conversation.find((e) => e.id === user.id)!.label, 'start');
  assert.equal(h.app.views.treeNode(user.id)!.label, 'start');
  refusal(await h.app.tree.label('missing', 'x'), 'unknown-entry', /Unknown entry/);
  const before = h.app.snapshot().session!.file;
  const forked = accepted(await h.app.session.forkBranch());
  assert.notEqual(forked.file, before);
  assert.equal(h.app.snapshot().conversation.find((e) => e.id === user.id)!.label, 'start');
});

test('tree deltas are incremental: an append reports one added node and its changed parent, not the file', async () => {
  const h = await appHarness();
  for (let i = 0; i < 5; i++) h.fake.enqueue({ text: `reply ${i}` });
  for (let i = 0; i < 5; i++) await h.app.prompt(`message ${i}`);
  const before = h.changes.length;
  h.fake.enqueue({ text: 'last' });
  await h.app.prompt('one more');
  const deltas = h.changes.slice(before).filter((c) => c.kind === 'tree');
  assert.equal(deltas.length, 2);
  for (const delta of deltas) {
    if (delta.kind !== 'tree') continue;
    assert.equal(delta.added.length, 1);
    assert.ok(delta.changed.length <= 1, 'only the parent changed');
  }
});

test('a reopened session meters the system prompt and tools before its first prompt, as the marker counts them', async () => {
  const h = await appHarness({ raw: { compaction: { keepRecentTokens: 50 } } });
  const long = 'lorem '.repeat(100);
  // the bulk in the replies: what the user wrote is kept verbatim, so only replies can shrink the context
  for (let i = 0; i < 4; i++) h.fake.enqueue({ text: `answer ${i} ${long}` });
  for (let i = 0; i < 4; i++) await h.app.prompt(`question ${i}`);
  const sections = ['Goal', 'Constraints & Preferences', 'Progress', 'Key Decisions', 'Next Steps', 'Critical Context'];
  h.fake.enqueue({ text: sections.map((s) => `## ${s}\n-`).join('\n\n') });
  assert.equal((await h.app.prompt('/compact')).kind, 'compacted');
  const sameProcess = h.app.usage()!;
  assert.equal(sameProcess.contextTokens, null, 'no reply since the compaction: the meter estimates');
  const reopened = await appHarness({ raw: { compaction: { keepRecentTokens: 50 } } });
  await reopened.app.session.openSession(h.app.snapshot().session!.file);
  for (let i = 0; i < 200 && !reopened.changes.some((c) => c.kind === 'usage'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(reopened.changes.some((c) => c.kind === 'usage'), 'the meter is told once the system prompt is known');
  assert.equal(reopened.app.usage()!.estimatedTokens, sameProcess.estimatedTokens, 'the same estimate as before the reload (system prompt and tools counted)');
});
