// "Arbor: Fork Session" / "Fork to New Session" (Session Tree): copies the path root→entry (default: the
// current position) into a new session file and continues there. The original session is untouched.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.forkSession';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  const store = requireStore(deps);
  if (!store) return false;
  const entryId = arg === undefined ? store.getLeafId() ?? undefined : entryIdFrom(arg);
  if (arg === undefined && entryId === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The session has no entries yet: nothing to fork.'));
    return false;
  }
  const entry = requireEntry(deps, store, entryId);
  if (!entry) return false;
  try {
    const outcome = await deps.app.session.forkBranch(entry.id);
    if (outcome.kind === 'refused') {
      showRefusal(outcome, deps.log);
      return false;
    }
    deps.log.info(`forked ${store.file} at ${entry.id}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Forked into a new session. The original session is unchanged.'));
    return true;
  } catch (error) {
    deps.log.error(`fork-session: ${stackOf(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not fork the session: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
