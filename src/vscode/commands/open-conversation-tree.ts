// "Arbor: Open Conversation Tree": the session's tree drawn as a graph in an editor tab (tree-tabs.ts):
// lanes, the active path, zoom, minimap, hover previews and switching from the keyboard.
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.openConversationTree';

/** Shows the focused chat's session (the host's `conversationTree`). */
export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => {
    deps.conversationTree.show();
  });
}
