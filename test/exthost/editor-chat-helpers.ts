// Editor-tab chats for extension-host tests (chat-editor, tree-tabs): open one and run a turn in it, and
// close every editor tab Arbor opened after a test.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { fakeAdmin } from './helpers';

/** Opens a chat on a new session in an editor tab and runs one turn there (the fake LLM answers `reply`): the chat and its session file. */
export async function editorChatWithTurn(api: ArborApi, prompt: string, reply: string) {
  assert.equal(await vscode.commands.executeCommand('arbor.newChatInEditor'), true);
  const chat = api.chatPanels.panels.at(-1)!;
  await fakeAdmin('enqueue', { text: reply });
  await chat.receive({ type: 'prompt', text: prompt });
  return { chat, file: chat.app!.session.sessionView()!.file };
}

/** Closes the Conversation Tree tabs and the editor chats a test opened. */
export function closeEditorTabs(api: ArborApi): void {
  for (const tab of api.treeTabs.tabs) tab.panel.dispose();
  for (const chat of api.chatPanels.panels) chat.panel.dispose();
}
