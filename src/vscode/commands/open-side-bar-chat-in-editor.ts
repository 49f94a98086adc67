// The Chat view's title-bar "Open in Editor": the side bar's session moves to an editor tab (the side bar
// goes on with a new session), whichever chat had the focus last. Hidden from the palette, where "Open
// Chat in Editor" takes the focused chat.
import * as vscode from 'vscode';
import { showInEditorOutcome } from './open-chat-in-editor';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.openSideBarChatInEditor';

export function run(deps: SurfaceDeps): Promise<boolean> {
  return showInEditorOutcome(deps, 'sideBar');
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
