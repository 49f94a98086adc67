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
    const sideBarFile = api.app.session.sessionView()?.file;
    assert.equal(await vscode.commands.executeCommand('arbor.newChatInEditor'), true);
    assert.equal(await vscode.commands.executeCommand('arbor.newChatInEditor'), true);
    const [first, second] = api.chatPanels.panels;
    assert.ok(first && second, 'two editor chats are open');
    assert.equal(api.chats.all.length, 3, 'the side bar chat and two editor chats');
    await waitFor('both webviews to complete the handshake', () => first.stats.handshakes > 0 && second.stats.handshakes > 0, 30_000);
    assert.notEqual(first.app!.session.sessionView()!.file, second.app!.session.sessionView()!.file, 'each tab has its own session');

    await fakeAdmin('enqueue', { text: 'Reply in the first tab.' });
    assert.equal(await first.receive({ type: 'prompt', text: 'Question in the first tab' }), true);
    assert.equal(api.chats.focused, first.app, 'the chat that sent a prompt is the focused one');
    await fakeAdmin('enqueue', { text: 'Reply in the second tab.' });
    assert.equal(await second.receive({ type: 'prompt', text: 'Question in the second tab' }), true);
    assert.equal(api.chats.focused, second.app);

    assert.deepEqual(messagesOf(await sessionLines(first.app!.session.sessionView()!.file)), ['user: Question in the first tab', 'assistant: Reply in the first tab.']);
    assert.deepEqual(messagesOf(await sessionLines(second.app!.session.sessionView()!.file)), ['user: Question in the second tab', 'assistant: Reply in the second tab.']);
    assert.equal(api.app.session.sessionView()?.file, sideBarFile, "the side bar's session did not change");
    assert.equal(first.panel.title, 'Question in the first tab', 'a tab is named after its session');

    // a command acts on the focused chat: a new session replaces the second tab's, not the first's
    const firstFile = first.app!.session.sessionView()!.file;
    const secondFile = second.app!.session.sessionView()!.file;
    const created = await vscode.commands.executeCommand<string>('arbor.newSession');
    assert.equal(second.app!.session.sessionView()!.file, created);
    assert.notEqual(created, secondFile);
    assert.equal(first.app!.session.sessionView()!.file, firstFile);
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
    assert.equal(restored.app!.session.sessionView()?.file, file, 'the tab shows the session it showed before');
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
    assert.equal(fresh.app!.session.sessionView()?.persisted, false, 'a file that is gone gives a new, empty session');
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
    assert.equal(api.chatPanels.panels[0]!.app!.session.sessionView()?.file, file);
  });

  test('opening a session that a chat already shows brings that chat forward instead of opening it twice', async () => {
    const api = await activateArbor();
    await vscode.commands.executeCommand('arbor.newChatInEditor');
    const chat = api.chatPanels.panels[0]!;
    await fakeAdmin('enqueue', { text: 'Once.' });
    await chat.receive({ type: 'prompt', text: 'Only one chat has me' });
    const file = chat.app!.session.sessionView()!.file;
    api.chats.focus(api.app);
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor', file), true);
    assert.equal(api.chatPanels.panels.length, 1, 'no second tab on the same session');
    assert.equal(api.chats.focused, chat.app);
    api.chats.focus(api.app);
    await vscode.commands.executeCommand('arbor.sessions.open', file);
    assert.equal(api.chats.focused, chat.app, "the Sessions view's Open brings the tab forward");
    assert.notEqual(api.app.session.sessionView()?.file, file, 'the side bar did not open it a second time');
  });

  test("Open Chat in Editor shows the focused chat's session: the side bar's moves to a tab, a tab comes forward, an empty one gives a new tab", async () => {
    const api = await activateArbor();
    await api.app.session.newSession();
    await fakeAdmin('enqueue', { text: 'Answered in the side bar.' });
    await api.app.prompt('Asked in the side bar');
    const file = api.app.session.sessionView()!.file;
    api.chats.focus(api.app);
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor'), true);
    assert.equal(api.chatPanels.panels.length, 1);
    const tab = api.chatPanels.panels[0]!;
    assert.equal(tab.app!.session.sessionView()?.file, file, "the tab shows the side bar's session");
    assert.equal(tab.panel.title, 'Asked in the side bar');
    assert.notEqual(api.app.session.sessionView()?.file, file, 'the side bar went on with another session');
    assert.equal(api.app.session.sessionView()?.persisted, false, 'a new, empty one');
    assert.equal(api.chats.focused, tab.app, 'the tab is the focused chat');
    await fakeAdmin('enqueue', { text: 'Answered in the tab.' });
    await tab.receive({ type: 'prompt', text: 'Asked in the tab' });
    assert.deepEqual(
      messagesOf(await sessionLines(file)),
      ['user: Asked in the side bar', 'assistant: Answered in the side bar.', 'user: Asked in the tab', 'assistant: Answered in the tab.'],
      'the moved session goes on in the tab, in the same file',
    );

    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor'), true);
    assert.equal(api.chatPanels.panels.length, 1, 'the focused tab came forward: no second tab');
    assert.equal(tab.app!.session.sessionView()?.file, file);

    api.chats.focus(api.app);
    const sideBarFile = api.app.session.sessionView()!.file;
    assert.equal(await vscode.commands.executeCommand('arbor.openChatInEditor'), true);
    assert.equal(api.chatPanels.panels.length, 2, 'nothing written in the side bar: a tab on a new session');
    assert.equal(api.chatPanels.panels[1]!.app!.session.sessionView()?.persisted, false);
    assert.equal(api.app.session.sessionView()?.file, sideBarFile, 'the side bar kept its empty session');
  });

  test("the Chat view's title-bar Open in Editor moves the side bar's session even when a tab has the focus; not while it works", async () => {
    const api = await activateArbor();
    const { chat } = await editorChatWithTurn(api, 'A tab of its own', 'Yes.');
    await api.app.session.newSession();
    await fakeAdmin('enqueue', { text: 'Side bar reply.' });
    await api.app.prompt('Side bar question');
    const file = api.app.session.sessionView()!.file;
    api.chats.focus(chat.app!);
    await fakeAdmin('enqueue', { text: 'slow '.repeat(40), chunkSize: 5, delayMs: 100 });
    const running = api.app.prompt('Keep working');
    await waitFor('the side bar turn to run', () => api.app.snapshot({ tree: false, conversation: false }).busy);
    assert.equal(await vscode.commands.executeCommand('arbor.openSideBarChatInEditor'), false, 'not moved while its turn runs');
    assert.equal(api.app.session.sessionView()?.file, file);
    await running;
    assert.equal(await vscode.commands.executeCommand('arbor.openSideBarChatInEditor'), true);
    const moved = api.chatPanels.panels.find((p) => p.app!.session.sessionView()?.file === file);
    assert.ok(moved, "the side bar's session is in a tab");
    assert.equal(api.chatPanels.panels.length, 2);
    assert.notEqual(api.app.session.sessionView()?.file, file);
  });

  test("a new session's first message names it in the chat's header while the reply still streams, as in the tab title", async () => {
    const api = await activateArbor();
    assert.equal(await vscode.commands.executeCommand('arbor.newChatInEditor'), true);
    const chat = api.chatPanels.panels[0]!;
    await waitFor('the webview handshake', () => chat.stats.handshakes > 0, 30_000);
    const mark = chat.postCount;
    await fakeAdmin('enqueue', { text: 'slow '.repeat(40), chunkSize: 5, delayMs: 50 });
    await chat.receive({ type: 'prompt', text: 'Call me by my words' });
    const posts = chat.postsSince(mark);
    const named = posts.findIndex((m) => m.type === 'state' && m.state.sessionName === 'Call me by my words');
    const replied = posts.findIndex((m) => m.type === 'agentEvent' && m.event.type === 'message_end' && m.event.item.kind === 'assistant');
    assert.ok(replied > 0, 'the reply arrived');
    assert.ok(named >= 0 && named < replied, `the header was named before the reply ended (state at ${named}, reply at ${replied})`);
  });
});
