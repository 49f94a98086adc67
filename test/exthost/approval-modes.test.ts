// Approval modes in the real extension host (fake provider): the commands switch the focused chat's mode,
// Auto-edit runs a write without an approval request, Plan offers only the read tools and refuses a write,
// the mode is in the session file and comes back when the session is reopened, and Run This Plan switches
// to Ask and sends the follow-up prompt.
import * as assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return join(folder.uri.fsPath, name);
}

async function modeEntries(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  return lines.filter((l) => l.type === 'custom' && l.customType === 'arbor.approvalMode').map((l) => l.data.mode);
}

suite('approval modes (extension host, fake provider)', () => {
  setup(async () => {
    await fakeAdmin('reset', {});
  });

  test('Auto-edit writes without asking, Plan refuses, the mode is recorded and restored, Run This Plan goes back to Ask', async () => {
    const api = await activateArbor();
    const file = workspaceFile('arbor-modes.txt');
    await rm(file, { force: true });
    await api.app.session.newSession();
    const asked: string[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      asked.push(pending.toolName);
      api.approvals.answer(pending.toolCallId, { kind: 'deny' });
    });
    try {
      assert.equal(await vscode.commands.executeCommand('arbor.setApprovalMode', 'autoEdit'), 'autoEdit');
      assert.equal(api.app.approvalMode, 'autoEdit');
      await fakeAdmin('enqueue', [{ toolCalls: [{ id: 'call_w1', name: 'write', input: { path: 'arbor-modes.txt', content: 'auto\n' } }] }, { text: 'Written.' }]);
      await api.app.prompt('write the file');
      assert.equal(await readFile(file, 'utf8'), 'auto\n');
      assert.deepEqual(asked, [], 'Auto-edit asked nothing for a write inside the workspace');

      assert.equal(await vscode.commands.executeCommand('arbor.cycleApprovalMode'), 'plan');
      await fakeAdmin('enqueue', [{ toolCalls: [{ id: 'call_w2', name: 'write', input: { path: 'arbor-modes.txt', content: 'planned\n' } }] }, { text: '## Goal\nChange the file.' }]);
      await api.app.prompt('plan it');
      assert.equal(await readFile(file, 'utf8'), 'auto\n', 'Plan refused the write');
      assert.deepEqual(asked, []);
      const requests = (await fakeAdmin('requests')) as { path: string; body: { tools?: { function?: { name: string }; name?: string }[] } }[];
      const planRequest = requests.filter((r) => r.body?.tools).at(-2)!;
      const names = planRequest.body.tools!.map((t) => t.function?.name ?? t.name).sort();
      // the built-in readers and the editor's read-only tools; none that writes or runs
      assert.ok(names.includes('read') && names.includes('grep'), names.join(','));
      assert.deepEqual(names.filter((n) => ['write', 'edit', 'bash'].includes(n ?? '')), [], `Plan offered only tools that read: ${names.join(',')}`);

      const session = api.app.snapshot().session!.file!;
      assert.deepEqual(await modeEntries(session), ['autoEdit', 'plan']);
      await api.app.session.newSession();
      assert.equal(api.app.approvalMode, 'plan', 'a new chat starts in the chat mode');
      await vscode.commands.executeCommand('arbor.setApprovalMode', 'ask');
      await api.app.session.openSession(session);
      assert.equal(api.app.approvalMode, 'plan', 'reopening the session restores its mode');

      await fakeAdmin('enqueue', { text: 'Carrying out the plan.' });
      assert.equal(await vscode.commands.executeCommand('arbor.runPlan', 'ask'), 'ask');
      assert.equal(api.app.approvalMode, 'ask');
      const last = api.app.snapshot().conversation.filter((e) => e.kind === 'user').at(-1)!;
      assert.match(last.text, /Carry out the plan above/);
      assert.deepEqual(await modeEntries(session), ['autoEdit', 'plan', 'ask']);
    } finally {
      subscription.dispose();
      await vscode.commands.executeCommand('arbor.setApprovalMode', 'ask');
      await rm(file, { force: true });
    }
  });

  test('a mode picked in the chat posts the state once, with planReady from the host', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to be ready', () => api.chatView.isReady, 30_000);
    await api.app.session.newSession();
    await fakeAdmin('enqueue', { text: 'Hello.' });
    await api.app.prompt('hi');
    const statePosts = (mark: number) => api.chatView.postsSince(mark).flatMap((post) => (post.type === 'state' ? [post.state] : []));
    try {
      const mark = api.chatView.postCount;
      assert.equal(await api.chatView.receive({ type: 'setApprovalMode', mode: 'plan' }), true);
      await waitFor('the state post', () => statePosts(mark).length > 0, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 50)); // a second post would be scheduled by now
      const states = statePosts(mark);
      assert.equal(states.length, 1, `one state post per mode switch: ${states.map((s) => s.approvalMode).join(', ')}`);
      assert.equal(states[0]!.approvalMode, 'plan');
      assert.equal(states[0]!.planReady, false, 'the reply was made in Ask: no plan to run');
    } finally {
      await vscode.commands.executeCommand('arbor.setApprovalMode', 'ask');
    }
  });
});
