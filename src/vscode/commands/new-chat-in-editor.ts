// "Arbor: New Chat in Editor": a chat on a new session in an editor tab (beside an active chat tab), for
// a second conversation next to the ones already open. "Open Chat in Editor" shows an existing session.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { type SurfaceDeps } from './surface-deps';

export const id = 'arbor.newChatInEditor';

export async function run(deps: SurfaceDeps): Promise<boolean> {
  try {
    await deps.chatPanels.openChat();
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the chat: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
