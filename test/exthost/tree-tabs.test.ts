// Conversation Tree tabs after a window reload (src/vscode/tree-tabs.ts): VS Code hands the tab back to the
// serializer with the state its webview saved, which names the session; the tab comes back on the chat that
// has that session open (here an editor chat, not the focused side bar), and the graph page loads.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConversationTreeTabs } from '../../src/vscode/tree-tabs';
import { closeEditorTabs, editorChatWithTurn } from './editor-chat-helpers';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

suite('Conversation Tree tabs', () => {
  setup(async () => {
    await fakeAdmin('reset', {});
  });
  teardown(async () => closeEditorTabs(await activateArbor()));

  test('the serializer restores a tab on the chat that has its session; a file that is gone shows the focused chat', async () => {
    const api = await activateArbor();
    const { chat, file } = await editorChatWithTurn(api, 'Grow a tree', 'A reply with a tree.');
    await vscode.commands.executeCommand('arbor.openConversationTree');
    const opened = api.treeTabs.tabs[0]!;
    assert.equal(opened.host.app, chat.app, 'the command shows the focused (editor) chat');
    await waitFor('the tree page to complete the handshake', () => opened.host.stats.handshakes > 0, 30_000);
    opened.panel.dispose();
    await waitFor('the closed tree tab to leave', () => api.treeTabs.tabs.length === 0);

    // What VS Code does after a reload, while another chat has the focus: a panel of the view type and the
    // state the tree page saved.
    api.chats.focus(api.app);
    const panel = vscode.window.createWebviewPanel(ConversationTreeTabs.viewType, 'Conversation Tree', vscode.ViewColumn.Active);
    await api.treeTabs.deserializeWebviewPanel(panel, { sessionFile: file });
    const restored = api.treeTabs.tabs.find((tab) => tab.panel === panel);
    assert.ok(restored, 'the restored panel is a tree tab');
    assert.equal(restored.host.app, chat.app, "the tab shows the tree of the chat that has its session, not the focused one's");
    await waitFor('the restored tree page to complete the handshake', () => restored.host.stats.handshakes > 0, 30_000);
    const tree = restored.host.recentPosts.filter((m) => m.type === 'tree').at(-1);
    assert.ok(tree?.type === 'tree' && tree.nodes.length >= 2, 'the page was sent the session tree');

    const gone = vscode.window.createWebviewPanel(ConversationTreeTabs.viewType, 'Conversation Tree', vscode.ViewColumn.Active);
    await api.treeTabs.deserializeWebviewPanel(gone, { sessionFile: `${file}.deleted.jsonl` });
    assert.equal(api.treeTabs.tabs.find((tab) => tab.panel === gone)?.host.app, api.app, 'a file that is gone: the focused chat');
  });
});
