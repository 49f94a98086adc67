// The application controller inside the real extension host, talking to the fake provider server that
// scripts/run-exthost-tests.mjs starts (ARBOR_TEST_LLM_URL; the settings point arbor.model at it).
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateArbor, waitFor, fakeAdmin } from './helpers';



async function sessionLines(file: string): Promise<Record<string, any>[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
}

function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return join(folder.uri.fsPath, name);
}

suite('app (extension host, fake provider)', () => {
  setup(async () => {
    await fakeAdmin('reset', {});
  });

  test('the API exposes the app and both hook registries', async () => {
    const api = await activateArbor();
    assert.equal(typeof api.compactionHooks.register, 'function');
    assert.equal(typeof api.navigationHooks.register, 'function');
    assert.equal(api.app.models.current.provider, 'fake', 'arbor.model points at the fake provider');
  });

  test('prompt → the fake reply is persisted in the session file and shown in the snapshot', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newSession');
    await fakeAdmin('enqueue', { text: 'Hello from the fake provider.' });
    const outcome = await api.app.prompt('Say hello');
    assert.equal(outcome.kind, 'sent');
    const snapshot = api.app.snapshot();
    assert.deepEqual(snapshot.conversation.map((e) => [e.kind, e.text]), [['user', 'Say hello'], ['assistant', 'Hello from the fake provider.']]);
    const lines = await sessionLines(snapshot.session!.file);
    const assistant = lines.find((l) => l.type === 'message' && l.message.role === 'assistant');
    assert.equal(assistant?.message.content[0].text, 'Hello from the fake provider.');
    assert.equal(assistant?.message.provider, 'fake');
  });

  test('approval: an approved edit changes the file; a denied write leaves it and records a denied result', async () => {
    const api = await activateArbor();
    const file = workspaceFile('arbor-approval.txt');
    await writeFile(file, 'alpha\n');
    await api.app.session.newSession();
    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_edit', name: 'edit', input: { path: 'arbor-approval.txt', oldText: 'alpha', newText: 'beta' } }] },
      { toolCalls: [{ id: 'call_write', name: 'write', input: { path: 'arbor-approval.txt', content: 'gamma\n' } }] },
      { text: 'Finished.' },
    ]);
    const answered: string[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      answered.push(`${pending.toolName}:${pending.canDiff}`);
      api.approvals.answer(pending.toolCallId, pending.toolName === 'edit' ? { kind: 'approve' } : { kind: 'deny', feedback: 'not now' });
    });
    try {
      await api.app.prompt('Change alpha to beta');
    } finally {
      subscription.dispose();
    }
    assert.deepEqual(answered, ['edit:true', 'write:true']);
    assert.equal(await readFile(file, 'utf8'), 'beta\n');
    const results = api.app.snapshot().conversation.filter((e) => e.kind === 'toolResult');
    assert.deepEqual(results.map((r) => [r.toolName, r.isError]), [['edit', false], ['write', true]]);
    assert.match(results[1]!.text, /not now/);
    assert.equal(api.approvals.answer('call_edit', { kind: 'approve' }), false, 'nothing pending any more');
  });

  test('setApiKey / clearApiKey keep the key in SecretStorage only (not in settings, session file, webview messages)', async () => {
    const api = await activateArbor();
    const secret = 'sk-arbor-exthost-SECRET-4242';
    assert.equal(await vscode.commands.executeCommand('arbor.setApiKey', { provider: 'local', key: secret }), true);
    assert.equal(await api.hasApiKey('local'), true);
    assert.equal(await vscode.commands.executeCommand('arbor.setApiKey', { provider: 'nobody', key: secret }), false, 'unknown provider refused');
    await api.app.session.newSession();
    await fakeAdmin('enqueue', { text: 'a reply' });
    await api.app.prompt('hello with a key stored');
    // ... and never lands in settings, the session file or anything posted to the webview.
    const settings = JSON.stringify(vscode.workspace.getConfiguration('arbor'));
    assert.ok(!settings.includes(secret));
    const file = api.app.snapshot().session!.file;
    assert.ok(!(await readFile(file, 'utf8')).includes(secret));
    assert.ok(!JSON.stringify(api.chatView.recentPosts).includes(secret));
    assert.ok(!JSON.stringify(api.app.snapshot()).includes(secret));
    assert.equal(await vscode.commands.executeCommand('arbor.clearApiKey', { provider: 'local' }), true);
    assert.equal(await api.hasApiKey('local'), false);
    assert.equal(await vscode.commands.executeCommand('arbor.clearApiKey', { provider: 'local' }), false, 'nothing left to clear');
  });

  test('selectModel switches to a configured model, refuses an unknown one', async () => {
    const api = await activateArbor();
    assert.equal(await vscode.commands.executeCommand('arbor.selectModel', 'openai/gpt-5-mini'), true);
    assert.equal(api.app.snapshot().model.key, 'openai/gpt-5-mini');
    assert.equal(vscode.workspace.getConfiguration('arbor').get('model'), 'openai/gpt-5-mini', 'the choice is saved in arbor.model');
    assert.equal(await vscode.commands.executeCommand('arbor.selectModel', 'nobody/none'), false);
    assert.equal(api.app.snapshot().model.key, 'openai/gpt-5-mini');
    assert.equal(vscode.workspace.getConfiguration('arbor').get('model'), 'openai/gpt-5-mini');
    assert.equal(await vscode.commands.executeCommand('arbor.selectModel', 'fake/fake-gpt'), true);
    assert.equal(api.app.models.current.provider, 'fake');
    assert.equal(vscode.workspace.getConfiguration('arbor').get('model'), 'fake/fake-gpt');
  });

  test('newSession starts an empty conversation in a new file', async () => {
    const api = await activateArbor();
    await fakeAdmin('enqueue', { text: 'something' });
    await api.app.prompt('fill the old session');
    const before = api.app.snapshot().session!.file;
    const file = await vscode.commands.executeCommand<string>('arbor.newSession');
    assert.notEqual(file, before);
    assert.equal(api.app.snapshot().session?.file, file);
    assert.deepEqual(api.app.snapshot().conversation, []);
    assert.equal(api.app.snapshot().session?.persisted, false, 'written with the first message');
  });

  test('bad input: unknown entries and ids are refused with a clear error and change nothing', async () => {
    const api = await activateArbor();
    await api.app.session.newSession();
    // refusals come back typed (src/app/app-outcome.ts), they are not thrown
    assert.match(JSON.stringify(await api.app.tree.navigate('no-such-entry')), /"kind":"refused","reason":"unknown-entry".*Unknown entry/);
    assert.match(JSON.stringify(await api.app.tree.label('no-such-entry', 'x')), /"reason":"unknown-entry"/);
    assert.match(JSON.stringify(await api.app.session.forkBranch()), /"reason":"nothing-to-fork".*Nothing to fork/);
    assert.match(JSON.stringify(await api.app.models.setThinkingLevel('extreme')), /"reason":"unknown-thinking-level".*Unknown thinking level/);
    await assert.rejects(api.app.compaction.compact(), /.+/);
    assert.equal((await api.app.prompt('/model not/real')).kind, 'refused');
    assert.deepEqual(api.app.snapshot().conversation, []);
    await waitFor('idle', () => !api.app.busy);
  });
});
