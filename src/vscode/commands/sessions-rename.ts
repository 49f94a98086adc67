// Sessions view: rename a session (a session_info entry, pi's way; empty clears the name).
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import { sessionFileFrom } from './sessions-open';
import { type SurfaceDeps } from './surface-deps';

export const id = 'arbor.sessions.rename';

export async function run(deps: SurfaceDeps, arg?: unknown, nameArg?: string): Promise<boolean> {
  const file = sessionFileFrom(arg) ?? deps.app.store?.file;
  if (!file) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No session was given.'));
    return false;
  }
  const current = deps.app.store?.file === file ? deps.app.store.getSessionName() : (arg as { name?: string } | undefined)?.name;
  const name =
    nameArg ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Rename Session'),
      prompt: vscode.l10n.t('New name (empty clears the name)'),
      value: current ?? '',
    }));
  if (name === undefined) return false;
  try {
    // a session a chat has open is renamed through that chat, so its views stay in step
    const outcome = await deps.app.renameSession(file, name.trim());
    if (outcome.kind === 'refused') {
      showRefusal(outcome, deps.log);
      return false;
    }
    deps.sessions.refresh();
    return true;
  } catch (error) {
    deps.log.error(`sessions-rename: ${stackOf(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not rename the session: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
