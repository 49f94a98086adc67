// Chats in editor tabs (src/vscode/chat-panels.ts): each tab has its own session, prompts from its webview
// reach that session only, the focused chat is the one the commands act on, and the panel serializer
// brings a tab back on the session its saved state names.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { ChatPanels } from '../../src/vscode/chat-panels';
import { closeEditorTabs, editorChatWithTurn } from './editor-chat-helpers';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

async function sessionLines(file: string): Promise<Record<string, any>[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
}

function textOf(content: string | { text?: string }[]): string {
  return typeof content === 'string' ? content : content.map((c) => c.text ?? '').join('');
}

function messagesOf(lines: Record<string, any>[]): string[] {
  return lines.filter((l) => l.type === 'message').map((l) => `${l.message.role}: ${textOf(l.message.content)}`);
}

suite('chat in editor tabs', () => {
  setup(async () => {
    await fakeAdmin('reset', {});
  });
  teardown(async () => closeEditorTabs(await activateArbor()));

  test('two editor chats on two sessions: a prompt in each lands in its own file; the focus follows the chat used', async () => {
    const api = await activateArbor();
    const sideBarFile = api.app.sessionView()?.file;
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor'), true);
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor'), true);
    const [first, second] = api.chatPanels.panels;
    assert.ok(first && second, 'two editor chats are open');
    assert.equal(api.chats.all.length, 3, 'the side bar chat and two editor chats');
    await waitFor('both webviews to complete the handshake', () => first.stats.handshakes > 0 && second.stats.handshakes > 0, 30_000);
    assert.notEqual(first.app!.sessionView()!.file, second.app!.sessionView()!.file, 'each tab has its own session');

    await fakeAdmin('enqueue', { text: 'Reply in the first tab.' });
    assert.equal(await first.receive({ type: 'prompt', text: 'Question in the first tab' }), true);
    assert.equal(api.chats.focused, first.app, 'the chat that sent a prompt is the focused one');
    await fakeAdmin('enqueue', { text: 'Reply in the second tab.' });
    assert.equal(await second.receive({ type: 'prompt', text: 'Question in the second tab' }), true);
    assert.equal(api.chats.focused, second.app);

    assert.deepEqual(messagesOf(await sessionLines(first.app!.sessionView()!.file)), ['user: Question in the first tab', 'assistant: Reply in the first tab.']);
    assert.deepEqual(messagesOf(await sessionLines(second.app!.sessionView()!.file)), ['user: Question in the second tab', 'assistant: Reply in the second tab.']);
    assert.equal(api.app.sessionView()?.file, sideBarFile, "the side bar's session did not change");
    assert.equal(first.panel.title, 'Question in the first tab', 'a tab is named after its session');

    // a command acts on the focused chat: a new session replaces the second tab's, not the first's
    const firstFile = first.app!.sessionView()!.file;
    const secondFile = second.app!.sessionView()!.file;
    const created = await vscode.commands.executeCommand<string>('arbor.newSession');
    assert.equal(second.app!.sessionView()!.file, created);
    assert.notEqual(created, secondFile);
    assert.equal(first.app!.sessionView()!.file, firstFile);
  });

  test('the serializer reopens the session a tab showed; a missing file gives a new session; closing falls back to the side bar', async () => {
    const api = await activateArbor();
    const { chat: original, file } = await editorChatWithTurn(api, 'Before the reload', 'Remember me.');
    original.panel.dispose();
    await waitFor('the closed tab to leave', () => api.chatPanels.panels.length === 0);
    assert.equal(api.chats.all.length, 1, 'a closed tab closes its chat');
    assert.equal(api.chats.focused, api.app, 'the focus falls back to the side bar');

    // What VS Code does after a reload: a panel of the view type and the state the webview saved.
    const panel = vscode.window.createWebviewPanel(ChatPanels.viewType, 'Arbor Chat', vscode.ViewColumn.Active);
    await api.chatPanels.deserializeWebviewPanel(panel, { input: '', atBottom: true, treeOpen: false, history: [], sessionFile: file });
    const restored = api.chatPanels.panels[0]!;
    assert.equal(restored.app!.sessionView()?.file, file, 'the tab shows the session it showed before');
    assert.deepEqual(
      restored.app!.snapshot({ tree: false }).conversation.map((e) => [e.kind, e.text]),
      [['user', 'Before the reload'], ['assistant', 'Remember me.']],
    );
    await waitFor('the restored webview to complete the handshake', () => restored.stats.handshakes > 0, 30_000);
    const conversation = restored.recentPosts.filter((m) => m.type === 'conversation').at(-1);
    assert.equal(conversation?.type === 'conversation' ? conversation.items.length : 0, 2, 'the webview was sent the conversation');

    const gone = vscode.window.createWebviewPanel(ChatPanels.viewType, 'Arbor Chat', vscode.ViewColumn.Active);
    await api.chatPanels.deserializeWebviewPanel(gone, { sessionFile: `${file}.deleted.jsonl` });
    const fresh = api.chatPanels.panels.find((chat) => chat.panel === gone)!;
    assert.equal(fresh.app!.sessionView()?.persisted, false, 'a file that is gone gives a new, empty session');
  });

  test('a tab restored after its session was reopened for it (its tab was missing at activation) closes instead of doubling the chat', async () => {
    const api = await activateArbor();
    const { chat, file } = await editorChatWithTurn(api, 'Lost tab', 'Reopen me.');
    chat.panel.dispose();
    await waitFor('the closed tab to leave', () => api.chatPanels.panels.length === 0);

    api.chatPanels.reopen([file], false);
    await waitFor('the session to be reopened in a tab', () => api.chats.holding(file) !== undefined);
    const late = vscode.window.createWebviewPanel(ChatPanels.viewType, 'Arbor Chat', vscode.ViewColumn.Active);
    let closed = false;
    late.onDidDispose(() => (closed = true));
    await api.chatPanels.deserializeWebviewPanel(late, { sessionFile: file });
    assert.ok(closed, 'the late restored tab closed');
    assert.equal(api.chatPanels.panels.length, 1, 'one chat tab on the session');
    assert.equal(api.chatPanels.panels[0]!.app!.sessionView()?.file, file);
  });

  test('opening a session that a chat already shows brings that chat forward instead of opening it twice', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.openChatInEditor');
    const chat = api.chatPanels.panels[0]!;
    await fakeAdmin('enqueue', { text: 'Once.' });
    await chat.receive({ type: 'prompt', text: 'Only one chat has me' });
    const file = chat.app!.sessionView()!.file;
    api.chats.focus(api.app);
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor', file), true);
    assert.equal(api.chatPanels.panels.length, 1, 'no second tab on the same session');
    assert.equal(api.chats.focused, chat.app);
    api.chats.focus(api.app);
    await vscode.commands.executeCommand('arbor.sessions.open', file);
    assert.equal(api.chats.focused, chat.app, "the Sessions view's Open brings the tab forward");
    assert.notEqual(api.app.sessionView()?.file, file, 'the side bar did not open it a second time');
  });
});
