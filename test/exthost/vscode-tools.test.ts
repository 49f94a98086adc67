// VS Code's own language-model tools (vscode.lm.tools) offered to the agent: the test extension
// test/exthost/lm-tools registers `arbor_test_echo`. Arbor offers it only once the user enables it (by
// name or tag), asks before running it (an outside tool `runs`), invokes it through vscode.lm.invokeTool
// and shows its text, JSON and image parts; disabling it takes it away again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, fakeAdmin, waitFor } from './helpers';
import { stubWindow } from './surfaces-fixtures';

interface FixtureState {
  invocations: { input: Record<string, unknown> }[];
}

async function fixture(): Promise<FixtureState> {
  const extension = vscode.extensions.getExtension<FixtureState>('arbor-test.lm-tools');
  if (!extension) throw new Error('the test extension with a language-model tool is not loaded');
  return extension.activate();
}

const setting = () => vscode.workspace.getConfiguration('arbor.vscodeTools');
const lmTools = () => (vscode.lm as unknown as { tools: readonly { name: string }[] }).tools;

suite('VS Code language-model tools', () => {
  let api: ArborApi;
  suiteSetup(async () => {
    await fixture();
    api = await activateArbor();
    await waitFor('the test tool in vscode.lm.tools', () => lmTools().some((t) => t.name === 'arbor_test_echo'));
  });
  teardown(async () => {
    await setting().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await setting().update('readOnly', undefined, vscode.ConfigurationTarget.Global);
  });

  test('another extension\'s tool is not offered until the user enables it; enabled by tag it is, as a tool that runs', async () => {
    assert.equal(api.tools.get('arbor_test_echo'), undefined);
    await setting().update('enabled', ['arbor-test'], vscode.ConfigurationTarget.Global);
    await waitFor('the enabled tool in the live list', () => api.tools.get('arbor_test_echo') !== undefined);
    const tool = api.tools.get('arbor_test_echo')!;
    assert.equal(tool.effect.kind, 'runs');
    assert.deepEqual(tool.origin, { kind: 'vscode', tool: 'arbor_test_echo' });
    assert.deepEqual((tool.parameters as { required?: string[] }).required, ['text']);
    await setting().update('enabled', [], vscode.ConfigurationTarget.Global);
    await waitFor('the disabled tool gone', () => api.tools.get('arbor_test_echo') === undefined);
  });

  test('the agent is offered it, asks, invokes it through vscode.lm and the model reads its result', async function () {
    this.timeout(60_000);
    const state = await fixture();
    await setting().update('enabled', ['arbor_test_echo'], vscode.ConfigurationTarget.Global);
    await waitFor('the enabled tool in the live list', () => api.tools.get('arbor_test_echo') !== undefined);
    await api.app.session.newSession();
    await fakeAdmin('reset', {});
    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_echo_1', name: 'arbor_test_echo', input: { text: 'hello from arbor', image: true } }] },
      { toolCalls: [{ id: 'call_echo_2', name: 'arbor_test_echo', input: { wrong: 1 } }] },
      { text: 'echoed' },
    ]);
    const asked: string[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      asked.push(pending.toolName);
      api.approvals.answer(pending.toolCallId, { kind: 'approve' });
    });
    const before = state.invocations.length;
    try {
      assert.equal((await api.app.prompt('echo something')).kind, 'sent');
      await waitFor('the turn to end', () => !api.app.busy, 30_000);
    } finally {
      subscription.dispose();
    }
    assert.deepEqual(asked, ['arbor_test_echo', 'arbor_test_echo'], 'each call asks (arguments are checked once approved)');
    assert.deepEqual(state.invocations.slice(before).map((i) => i.input), [{ text: 'hello from arbor', image: true }]);
    const results = api.app.currentStore!.getBranch().flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
    const first = results.find((r) => r.toolCallId === 'call_echo_1')!;
    assert.equal(first.isError, false);
    assert.equal(first.content[0]!.type, 'text');
    assert.match((first.content[0] as { text: string }).text, /^echo: hello from arbor\n\{\s*"length":\s*16\s*\}$/);
    assert.equal(first.content[1]?.type, 'image', 'the PNG data part became an image');
    const second = results.find((r) => r.toolCallId === 'call_echo_2')!;
    assert.equal(second.isError, true);
    assert.match((second.content[0] as { text: string }).text, /missing required property "text"/);
    const requests = (await fakeAdmin('requests')) as { path: string; body: { tools?: { function: { name: string } }[]; messages: unknown[] } }[];
    const chat = requests.filter((r) => r.path === '/v1/chat/completions');
    assert.ok(chat[0]!.body.tools!.some((t) => t.function.name === 'arbor_test_echo'), 'offered to the model');
    assert.match(JSON.stringify(chat[1]!.body.messages), /echo: hello from arbor/);
  });

  test('a tool the user lists as read-only runs without asking', async function () {
    this.timeout(60_000);
    const state = await fixture();
    await setting().update('enabled', ['arbor_test_echo'], vscode.ConfigurationTarget.Global);
    await setting().update('readOnly', ['arbor_test_echo'], vscode.ConfigurationTarget.Global);
    await waitFor('the tool as read-only', () => api.tools.get('arbor_test_echo')?.effect.kind === 'readOnly');
    await api.app.session.newSession();
    await fakeAdmin('enqueue', [{ toolCalls: [{ id: 'call_echo_ro', name: 'arbor_test_echo', input: { text: 'trusted' } }] }, { text: 'done' }]);
    const asked: string[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      asked.push(pending.toolName);
      api.approvals.answer(pending.toolCallId, { kind: 'deny' });
    });
    const before = state.invocations.length;
    try {
      assert.equal((await api.app.prompt('echo trusted')).kind, 'sent');
      await waitFor('the turn to end', () => !api.app.busy, 30_000);
    } finally {
      subscription.dispose();
    }
    assert.deepEqual(asked, []);
    assert.deepEqual(state.invocations.slice(before).map((i) => i.input), [{ text: 'trusted' }]);
  });

  test('Arbor: Choose VS Code Tools… lists vscode.lm.tools with the enabled ones checked and writes the checked names to the user setting', async () => {
    await setting().update('enabled', ['some-tag'], vscode.ConfigurationTarget.Global);
    type Item = { label: string; picked?: boolean };
    const window = stubWindow({ showQuickPick: (items: unknown) => (items as Item[]).filter((item) => item.label === 'arbor_test_echo') });
    try {
      await vscode.commands.executeCommand('arbor.vscodeTools.choose');
    } finally {
      window.restore();
    }
    const items = window.pickers[0]!.items as Item[];
    assert.ok(items.some((item) => item.label === 'arbor_test_echo' && !item.picked), 'listed, not checked yet');
    assert.deepEqual(setting().inspect('enabled')?.globalValue, ['some-tag', 'arbor_test_echo'], 'the tag is kept, the checked tool added');
    await waitFor('the chosen tool in the live list', () => api.tools.get('arbor_test_echo') !== undefined);
  });
});
