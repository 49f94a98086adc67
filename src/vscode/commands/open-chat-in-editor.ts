// "Arbor: Open Chat in Editor": a chat in an editor tab (beside the one that is active), on a session
// given as argument (the Sessions view's "Open in Editor", a file path or URI) or on a new session.
import * as vscode from 'vscode';
import type { ChatPanels } from '../chat-panels';
import { sessionFileFrom } from './sessions-open';

export const id = 'arbor.openChatInEditor';

export function register(panels: ChatPanels): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (arg?: unknown) => {
    try {
      await panels.openChat(sessionFileFrom(arg));
      return true;
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the chat: {0}', (error as Error).message));
      return false;
    }
  });
}
