// MCP servers in the real extension host (issue #27): the reference "everything" server from npm,
// configured in the user's `arbor.mcp.servers`, starts in the background; the scripted model calls its
// `echo` tool; the call asks (an MCP tool is `runs` unless the user says otherwise), is approved, and the
// server's answer is the tool result in the chat. A server whose command is missing fails with a clear
// status and the chat still answers.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import type { PendingApproval } from '../../src/vscode/approval-prompter';
import { runTool } from '../../src/agent/tools/types';
import { activateArbor, EXTENSION_ID, fakeAdmin, waitFor } from './helpers';
import { stubWindow } from './surfaces-fixtures';

const config = () => vscode.workspace.getConfiguration('arbor.mcp');

function everythingServer(): string {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  return join(root, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
}

suite('MCP servers (issue #27)', function () {
  this.timeout(120_000);
  let api: ArborApi;

  setup(async () => {
    api = await activateArbor();
    await api.app.session.newSession();
  });

  teardown(async () => {
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the servers to stop', () => api.mcp.servers.list().length === 0);
  });

  test('the agent calls a tool of server-everything from user settings: the card asks, approved, the result is in the chat', async () => {
    await config().update('servers', {
      everything: { command: process.execPath, args: [everythingServer(), 'stdio'] },
      broken: { command: 'arbor-no-such-mcp-command' },
    }, vscode.ConfigurationTarget.Global);
    await waitFor('server-everything to run', () => api.mcp.servers.get('everything')?.state === 'running', 60_000);
    await waitFor('the missing command to fail', () => api.mcp.servers.get('broken')?.state === 'failed', 30_000);
    assert.match(api.mcp.servers.get('broken')!.failureText!, /"arbor-no-such-mcp-command" was not found/);
    const echo = api.tools.get('everything_echo');
    assert.ok(echo, 'everything_echo is in the live tool list');
    assert.deepEqual(echo.origin, { kind: 'mcp', server: 'everything', tool: 'echo' });

    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_mcp_echo', name: 'everything_echo', input: { message: 'hello from the exthost' } }] },
      { text: 'The server echoed it.' },
    ]);
    const asked: PendingApproval[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      asked.push(pending);
      api.approvals.answer(pending.toolCallId, { kind: 'approve' });
    });
    try {
      assert.equal((await api.app.prompt('echo something through MCP')).kind, 'sent');
    } finally {
      subscription.dispose();
    }
    assert.deepEqual(asked.map((p) => [p.toolName, p.args]), [['everything_echo', { message: 'hello from the exthost' }]], 'the MCP call asked, with its exact arguments');
    const results = api.app.snapshot().conversation.filter((e) => e.kind === 'toolResult');
    const result = results.find((r) => r.toolName === 'everything_echo');
    assert.ok(result, 'the MCP result is in the chat');
    assert.equal(result.isError, false);
    assert.match(result.text, /Echo: hello from the exthost/);
    const requests = await fakeAdmin('requests');
    const sent = JSON.stringify(requests.at(-2) ?? requests);
    assert.match(sent, /everything_echo/, 'the model was offered the MCP tool');
  });

  test('a tool the user lists in readOnlyTools runs without asking; the others still ask', async () => {
    await config().update('servers', { ev: { command: process.execPath, args: [everythingServer(), 'stdio'], readOnlyTools: ['echo'] } }, vscode.ConfigurationTarget.Global);
    await waitFor('the server to run', () => api.mcp.servers.get('ev')?.state === 'running', 60_000);
    assert.equal(api.tools.get('ev_echo')?.effect.kind, 'readOnly');
    assert.equal(api.tools.get('ev_get-sum')?.effect.kind, 'runs', 'its readOnlyHint alone does not lower it');
    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_ro_echo', name: 'ev_echo', input: { message: 'no question' } }, { id: 'call_ro_sum', name: 'ev_get-sum', input: { a: 1, b: 2 } }] },
      { text: 'Done.' },
    ]);
    const asked: string[] = [];
    const subscription = api.approvals.onDidRequest((pending) => {
      asked.push(pending.toolName);
      api.approvals.answer(pending.toolCallId, { kind: 'approve' });
    });
    try {
      assert.equal((await api.app.prompt('echo and add')).kind, 'sent');
    } finally {
      subscription.dispose();
    }
    assert.deepEqual(asked, ['ev_get-sum'], 'only the tool not listed asked');
    const results = api.app.snapshot().conversation.filter((e) => e.kind === 'toolResult');
    assert.match(results.find((r) => r.toolName === 'ev_echo')!.text, /Echo: no question/);
    assert.match(results.find((r) => r.toolName === 'ev_get-sum')!.text, /3/);
  });

  test('a server that fails does not block the chat', async () => {
    await config().update('servers', { broken: { command: 'arbor-no-such-mcp-command' } }, vscode.ConfigurationTarget.Global);
    await waitFor('the missing command to fail', () => api.mcp.servers.get('broken')?.state === 'failed', 30_000);
    await fakeAdmin('enqueue', [{ text: 'Still here.' }]);
    assert.equal((await api.app.prompt('are you there?')).kind, 'sent');
    assert.ok(api.app.snapshot().conversation.some((e) => e.kind === 'assistant' && JSON.stringify(e).includes('Still here.')));
  });
});

suite('MCP servers from a workspace .vscode/mcp.json (issue #27)', function () {
  this.timeout(120_000);
  let api: ArborApi;
  const file = () => join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'mcp.json');
  const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const write = (run: string) => writeFile(file(), JSON.stringify({
    inputs: [{ type: 'promptString', id: 'token', description: 'Token for the Arbor test', password: true }],
    servers: { wsEverything: { command: process.execPath, args: [everythingServer(), 'stdio', `--run=${run}`], env: { ARBOR_TEST_TOKEN: '${input:token}' } } },
  }, null, 2));

  setup(async () => {
    api = await activateArbor();
    await mkdir(join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode'), { recursive: true });
  });

  teardown(async () => {
    await rm(file(), { force: true });
    await api.mcp.reload(false);
  });

  test('asks once per server with the exact command, keeps the input secret out of the question, asks again when the command changes', async () => {
    assert.equal(vscode.workspace.isTrusted, true, 'the test workspace is trusted');
    const modals: { text: string; detail: string }[] = [];
    let answer = 'Allow and Start';
    const ui = stubWindow({
      showWarningMessage: (text: string, options: { detail?: string }) => {
        modals.push({ text, detail: options?.detail ?? '' });
        return answer;
      },
      showInputBox: () => 'sekret-4711',
    });
    try {
      await write(nonce);
      await api.mcp.reload();
      await waitFor('the workspace server to run', () => api.mcp.servers.get('wsEverything')?.state === 'running', 60_000);
      assert.equal(modals.length, 1, 'one question');
      assert.match(modals[0]!.text, /This workspace wants to start the MCP server "wsEverything"/);
      assert.ok(modals[0]!.detail.includes(`stdio --run=${nonce}`), modals[0]!.detail);
      assert.ok(modals[0]!.detail.includes('ARBOR_TEST_TOKEN=${input:token}'), 'the env is shown as written');
      assert.ok(!modals[0]!.detail.includes('sekret-4711'), 'the secret is not in the question');
      assert.deepEqual(ui.inputs.map((i) => (i as { prompt?: string; password?: boolean }).prompt), ['Token for the Arbor test']);
      assert.equal((ui.inputs[0] as { password?: boolean }).password, true);
      const env = await runTool(api.tools.get('wsEverything_get-env')!, {}, { workspace: { folders: [] }, signal: new AbortController().signal });
      assert.match(JSON.stringify(env.content), /sekret-4711/, 'the server got the answer in its env');
      assert.doesNotMatch(JSON.stringify(env.content), /ARBOR_TEST_LLM_URL/, 'and not the extension host\'s environment');

      await api.mcp.reload();
      assert.equal(modals.length, 1, 'the same command does not ask again');
      assert.equal(ui.inputs.length, 1, 'the input comes from SecretStorage');

      answer = 'Don\'t Allow';
      await write(`${nonce}-changed`);
      await api.mcp.reload();
      assert.equal(modals.length, 2, 'a changed argument asks again');
      await waitFor('the changed server to stop', () => api.mcp.servers.get('wsEverything') === undefined);
      assert.deepEqual(api.mcp.heldServers().map((h) => [h.name, h.reason]), [['wsEverything', 'declined']]);
      assert.equal(api.tools.get('wsEverything_echo'), undefined);
    } finally {
      ui.restore();
    }
  });
});
