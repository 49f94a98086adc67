// Sessions view: delete a session file after a modal confirmation. A session a chat has open cannot be
// deleted (start or open another one in that chat first).
import { errorText } from '../../core/error-text';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { SessionSummary } from '../../session/catalog';
import { sessionTitle } from '../sessions/sessions-provider';
import { deleteSession } from '../../session/catalog';
import { collectAfterDelete } from '../checkpoints/store-size';
import { sessionFileFrom } from './sessions-open';
import { type SurfaceDeps } from './surface-deps';

export const id = 'arbor.sessions.delete';

/** The session as the Sessions view names it (its title), never the internal storage path (issue #28). */
function deletedName(arg: unknown, file: string): string {
  const summary = arg && typeof arg === 'object' ? (arg as Partial<SessionSummary>) : undefined;
  return summary && 'firstUserMessage' in summary ? sessionTitle(summary as SessionSummary) : basename(file, '.jsonl');
}

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  const file = sessionFileFrom(arg);
  if (!file) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No session was given.'));
    return false;
  }
  if (deps.app.isOpen(file)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This session is open. Start or open another session before deleting it.'));
    return false;
  }
  const remove = vscode.l10n.t('Delete');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete the session "{0}"? It is removed permanently, with all its branches.', deletedName(arg, file)),
    { modal: true },
    remove,
  );
  if (answer !== remove) return false;
  try {
    await deleteSession(file);
    deps.log.info(`deleted session ${file}`);
    await collectAfterDelete(deps.app.checkpoints, (await deps.app.session.listSessions()).map((s) => s.file), deps.log);
    deps.sessions.refresh();
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not delete the session: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
