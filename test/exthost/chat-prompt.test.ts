// The chat view's host side: webview messages drive the app, replies stream back as small messages.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { parseHostMessage } from '../../src/protocol';
import { activateArbor, waitFor } from './helpers';

const FAKE = process.env.ARBOR_TEST_LLM_URL;

async function enqueue(turns: unknown): Promise<void> {
  await fetch(`${FAKE}/__admin/enqueue`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(turns) });
}

suite('chat view ⇄ app', () => {
  test('a prompt message from the webview runs a turn: streamed as agent events, persisted, all host messages valid', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    await api.chatView.receive({ type: 'ready', protocolVersion: 2 });
    await api.app.session.newSession();
    const start = api.chatView.postCount;
    await enqueue({ text: 'Streamed reply from the fake.', chunkSize: 4 });
    assert.equal(await api.chatView.receive({ type: 'prompt', text: 'stream please' }), true);
    await waitFor('the turn to finish', () => !api.app.busy && api.app.snapshot().conversation.length === 2);
    const posts = api.chatView.postsSince(start);
    for (const post of posts) assert.ok(parseHostMessage(post).ok, `valid: ${JSON.stringify(post).slice(0, 200)}`);
    const events = posts.filter((p) => p.type === 'agentEvent').map((p) => (p.type === 'agentEvent' ? p.event.type : ''));
    assert.ok(events.includes('message_delta'), 'deltas were streamed');
    assert.ok(events.filter((e) => e === 'message_end').length >= 2, 'user and assistant items arrived');
    assert.ok(!posts.some((p) => p.type === 'conversation'), 'no whole-conversation resend during a turn');
    const file = api.app.snapshot().session!.file;
    assert.match(await readFile(file, 'utf8'), /Streamed reply from the fake\./);
  });

  test('navigate and label messages act on the session; bad ones are reported, not acted on', async () => {
    const api = await activateArbor();
    await api.app.session.newSession();
    await enqueue([{ text: 'first answer' }, { text: 'second answer' }]);
    await api.app.prompt('first');
    await api.app.prompt('second');
    const second = api.app.snapshot().conversation.find((e) => e.text === 'second')!;
    const start = api.chatView.postCount;
    assert.equal(await api.chatView.receive({ type: 'navigate', targetId: second.id, mode: 'none' }), true);
    assert.deepEqual(api.app.snapshot().conversation.map((e) => e.text), ['first', 'first answer']);
    if (api.chatView.isReady) {
      const posts = api.chatView.postsSince(start);
      assert.ok(posts.some((p) => p.type === 'editorText' && p.text === 'second'), 'edit-and-resend text sent back');
    }
    const first = api.app.snapshot().conversation[0]!;
    await api.chatView.receive({ type: 'label', entryId: first.id, label: 'start here' });
    assert.equal(api.app.snapshot().conversation[0]!.label, 'start here');
    const { failed, refused } = api.chatView.stats;
    const leaf = api.app.snapshot().leafId;
    const before = api.chatView.postCount;
    assert.equal(await api.chatView.receive({ type: 'navigate', targetId: 'missing-id', mode: 'none' }), true);
    assert.equal(await api.chatView.receive({ type: 'fork', entryId: 'missing-id' }), true);
    // an unknown entry is a refusal told with its reason, not a failure of the handler
    assert.equal(api.chatView.stats.refused, refused + 2);
    assert.equal(api.chatView.stats.failed, failed);
    if (api.chatView.isReady) {
      const notices = api.chatView.postsSince(before).filter((p) => p.type === 'notice');
      assert.ok(notices.length === 2 && notices.every((n) => n.type === 'notice' && n.level === 'warning' && /Unknown entry "missing-id"/.test(n.message)), JSON.stringify(notices));
    }
    assert.equal(api.app.snapshot().leafId, leaf, 'nothing moved');
    const rejected = api.chatView.stats.rejected;
    assert.equal(await api.chatView.receive({ type: 'navigate', targetId: '', mode: 'none' }), false);
    assert.equal(await api.chatView.receive({ type: 'selectModel' }), false);
    assert.equal(api.chatView.stats.rejected, rejected + 2);
  });
});
