// The chat view keeps the webview's tree current with `treePatch` messages: after the full tree of a
// session, a turn's appends and a label change go out as patches (O(change)), never as the whole tree,
// and the last full tree plus those patches is exactly the session's tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseHostMessage, type HostToWebviewMessage } from '../../src/protocol';
import { toTreeNode } from '../../src/vscode/tree-nodes';
import { applyTreePatch, treeModelOf } from '../../webview/tree-patch';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

type Post = HostToWebviewMessage;
type Patch = Extract<Post, { type: 'treePatch' }>;

suite('chat view tree patches', () => {
  test('an append and a label change post a treePatch, not a full tree; full tree + patches = the session tree', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChat');
    await waitFor('the chat view to resolve', () => api.chatView.isResolved);
    // Let the real webview finish its own handshake first, so its `ready` cannot land mid-test.
    await waitFor('the webview handshake', () => api.chatView.stats.handshakes > 0, 30_000);
    const chat = api.chatView;
    const opened = chat.postCount;
    await api.app.session.newSession();
    await waitFor('the new session\'s full tree', () => chat.postsSince(opened).some((p) => p.type === 'tree'));
    const full = chat.postsSince(opened).filter((p): p is Extract<Post, { type: 'tree' }> => p.type === 'tree').at(-1)!;
    const start = chat.postCount;

    await fakeAdmin('enqueue', { text: 'Patched reply.' });
    assert.equal(await api.chatView.receive({ type: 'prompt', text: 'patch me' }), true);
    await waitFor('the turn to finish', () => !api.app.busy && api.app.snapshot().conversation.length === 2);
    const [question, reply] = api.app.snapshot().conversation;
    const patches = () => chat.postsSince(start).filter((p): p is Patch => p.type === 'treePatch');
    await waitFor('the reply in a treePatch', () => patches().some((p) => p.added.some((n) => n.id === reply!.id)));
    assert.ok(patches().some((p) => p.added.some((n) => n.id === question!.id)), 'the prompt was patched in too');

    assert.equal(await api.chatView.receive({ type: 'label', entryId: question!.id, label: 'patched label' }), true);
    await waitFor('the label in a treePatch', () => patches().some((p) => p.changed.some((n) => n.id === question!.id && n.label === 'patched label')));

    const since = chat.postsSince(start);
    for (const post of since) assert.ok(parseHostMessage(post).ok, `valid: ${JSON.stringify(post).slice(0, 200)}`);
    assert.deepEqual(since.filter((p) => p.type === 'tree'), [], 'no full tree was resent for appends, labels or leaf moves');
    // Patches carry each new entry once (the prompt, the reply, the label entry), not the session.
    const snapshot = api.app.snapshot();
    const known = new Set(full.nodes.map((n) => n.id));
    const added = patches().flatMap((p) => p.added.map((n) => n.id));
    assert.deepEqual(added, (snapshot.tree ?? []).map((n) => n.id).filter((id) => !known.has(id)));
    assert.ok(added.length >= 3, `prompt, reply and label entry were added (${added.length})`);

    // What the webview ends up with equals a full tree of the session now.
    const model = treeModelOf(full.leafId, full.nodes.map((n) => ({ ...n })));
    for (const patch of patches()) applyTreePatch(model, patch);
    assert.equal(model.leafId, snapshot.leafId);
    assert.deepEqual(model.nodes, (snapshot.tree ?? []).map((node) => toTreeNode(node, snapshot.leafId)));
  });

  test('a session switch sends the full tree again', async () => {
    const api = await activateArbor();
    await waitFor('the chat view to be ready', () => api.chatView.isReady, 30_000);
    const start = api.chatView.postCount;
    await api.app.session.newSession();
    await waitFor('a full tree', () => api.chatView.postsSince(start).some((p) => p.type === 'tree'));
    const tree = api.chatView.postsSince(start).find((p) => p.type === 'tree');
    assert.equal(tree?.type === 'tree' && tree.leafId, api.app.snapshot().leafId);
  });
});
