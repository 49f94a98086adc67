// "Arbor: Open Chat in Editor" (the palette, a Sessions-view item): a chat in an editor tab. With a session
// given (the Sessions view, a file path or URI) on that session; else the focused chat's session
// (ChatPanels.showInEditor: a tab comes forward, the side bar's session moves to a tab). A new session in a
// tab comes from "New Chat in Editor" or the tab's own New Session button.
import * as vscode from 'vscode';
import type { ShowInEditorSource } from '../chat-panels';
import { sessionFileFrom } from './sessions-open';
import { openingChat, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.openChatInEditor';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  const file = sessionFileFrom(arg);
  if (!file) return showInEditorOutcome(deps, 'focused');
  return openingChat(deps, async () => {
    await deps.chatPanels.openChat(file);
    return true;
  });
}

/** Shows a chat's session in an editor tab and tells the user when it cannot move now; true when shown. */
export function showInEditorOutcome(deps: SurfaceDeps, source: ShowInEditorSource): Promise<boolean> {
  return openingChat(deps, async () => {
    const result = await deps.chatPanels.showInEditor(source);
    if (result.kind === 'busy') void vscode.window.showInformationMessage(vscode.l10n.t('Arbor is still working in this chat. Open it in the editor when it is done, or stop it first.'));
    return result.kind === 'shown';
  });
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
