// "Arbor: Open Conversation Tree": the session's tree drawn as a graph in an editor tab (tree-tabs.ts):
// lanes, the active path, zoom, minimap, hover previews and switching from the keyboard.
import * as vscode from 'vscode';
import type { ArborApp } from '../../app/arbor-app';
import type { ConversationTreeTabs } from '../tree-tabs';

export const id = 'arbor.openConversationTree';

/** `app`: the session the command shows (the chat's). */
export function register(tabs: ConversationTreeTabs, app: () => ArborApp): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => {
    tabs.show(app());
  });
}
