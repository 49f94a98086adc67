import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateArbor, waitFor } from './helpers';

suite('chat view', () => {
  test('Arbor: Open Chat resolves the chat webview, which completes the ready handshake', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    // The webview's scripts run in the browser and post `ready`; the host answers with the state. An
    // earlier test (New Session focuses the chat) may have loaded it already: then that handshake counts.
    await waitFor('the ready handshake', () => api.chatView.isReady && api.chatView.stats.handshakes > 0, 30_000);
    assert.equal(api.chatView.isReady, true);
    assert.ok(api.chatView.stats.posted >= 1, 'the state message was delivered');
  });

  test('malformed webview messages are rejected and dropped without effect', async () => {
    const api = await activateArbor();
    const before = { ...api.chatView.stats };
    const malformed: unknown[] = [
      null,
      'ready',
      { type: 'nope' },
      { type: 'ready' },
      { type: 'ready', protocolVersion: 1, extra: true },
      { type: 'log', level: 'fatal', message: 'x' },
    ];
    for (const raw of malformed) assert.equal(await api.chatView.receive(raw), false, JSON.stringify(raw));
    assert.equal(api.chatView.stats.rejected, before.rejected + malformed.length);
    assert.equal(api.chatView.stats.accepted, before.accepted);
    assert.equal(api.chatView.stats.handshakes, before.handshakes, 'no handshake from an invalid ready');
    assert.equal(api.chatView.stats.posted, before.posted, 'nothing was sent in reply');
  });

  test('a valid ready message is answered with the state, the conversation and the tree', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    const posted = api.chatView.stats.posted;
    const recent = api.chatView.postCount;
    assert.equal(await api.chatView.receive({ type: 'ready', protocolVersion: 2 }), true);
    assert.equal(api.chatView.stats.posted, posted + 3);
    assert.deepEqual(api.chatView.postsSince(recent).map((m) => m.type), ['state', 'conversation', 'tree']);
  });
});
