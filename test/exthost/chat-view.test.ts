import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostToWebviewMessage } from '../../src/protocol';
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
    assert.equal(api.chatView.stats.posted, posted + 4);
    assert.deepEqual(api.chatView.postsSince(recent).map((m) => m.type), ['state', 'restoreDraftImages', 'conversation', 'tree']);
  });

  test('a model without an API key is marked in the picker; choosing it or sending with it offers Set API Key', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to be ready', () => api.chatView.isReady, 30_000);
    assert.equal(await api.hasApiKey('anthropic'), false, 'precondition: no Anthropic key stored');
    assert.equal(process.env.ANTHROPIC_API_KEY, undefined, 'precondition: no Anthropic key in the environment');
    const claude = api.app.models.available().find((m) => m.provider === 'anthropic')!;
    const mark = api.chatView.postCount;
    try {
      assert.equal(await api.chatView.receive({ type: 'selectModel', key: claude.key }), true);
      const noticeOf = (m: HostToWebviewMessage) => (m.type === 'notice' ? m : undefined);
      await waitFor('the no-key notice', () => api.chatView.postsSince(mark).some((m) => noticeOf(m)?.actions !== undefined));
      const notice = api.chatView.postsSince(mark).map(noticeOf).find((m) => m?.actions)!;
      assert.deepEqual(notice.actions, [{ kind: 'setApiKey', provider: 'anthropic' }]);
      assert.match(notice.message, /needs an API key for Anthropic/);
      const stateOf = () => [...api.chatView.postsSince(mark)].reverse().find((m) => m.type === 'state');
      await waitFor('a state with the Anthropic model chosen', () => stateOf()?.type === 'state' && stateOf()!.state.currentModelKey === claude.key);
      const state = stateOf()!;
      assert.ok(state.type === 'state' && state.state.models!.find((m) => m.key === claude.key)!.keyMissing, 'marked in the picker');
      assert.ok(state.type === 'state' && !state.state.models!.find((m) => m.provider === 'demo')!.keyMissing, 'the demo needs no key');

      // Sending with it: the reply fails before any request, and its error carries the same action.
      await api.app.session.newSession();
      const sent = api.chatView.postCount;
      await api.app.prompt('hello without a key');
      const error = api.chatView.postsSince(sent).flatMap((m) => (m.type === 'agentEvent' && m.event.type === 'error' ? [m.event] : []))[0];
      assert.ok(error, 'an error event was posted');
      assert.equal(error.kind, 'auth');
      assert.deepEqual(error.actions, [{ kind: 'setApiKey', provider: 'anthropic' }]);

      // Once a key is stored the mark goes away.
      const stored = api.chatView.postCount;
      assert.equal(await vscode.commands.executeCommand('arbor.setApiKey', { provider: 'anthropic', key: 'sk-ant-exthost-test' }), true);
      await waitFor('a state without the mark', () =>
        api.chatView.postsSince(stored).some((m) => m.type === 'state' && m.state.models!.find((o) => o.key === claude.key)!.keyMissing === undefined),
      );
    } finally {
      await vscode.commands.executeCommand('arbor.clearApiKey', { provider: 'anthropic' });
      await vscode.commands.executeCommand('arbor.selectModel', 'fake/fake-gpt');
    }
  });
});
