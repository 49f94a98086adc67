// "Arbor: New Chat in Editor": a chat on a new session in an editor tab (beside an active chat tab), for
// a second conversation next to the ones already open. "Open Chat in Editor" shows an existing session.
import * as vscode from 'vscode';
import { openingChat, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.newChatInEditor';

export function run(deps: SurfaceDeps): Promise<boolean> {
  return openingChat(deps, async () => {
    await deps.chatPanels.openChat();
    return true;
  });
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
