// "Arbor: Open Chat in Editor": a chat in an editor tab (beside the one that is active), on a session
// given as argument (the Sessions view's "Open in Editor", a file path or URI) or on a new session.
import * as vscode from 'vscode';
import { sessionFileFrom } from './sessions-open';
import { errorText, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.openChatInEditor';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  try {
    await deps.chatPanels.openChat(sessionFileFrom(arg));
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the chat: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
