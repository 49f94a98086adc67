// "Arbor: Open Session File…": any pi-format .jsonl (Arbor's, pi's ~/.pi/agent/sessions, oh-my-pi's)
// becomes the current session. A file that is not a session gets a clear error and is left untouched.
import { errorText } from '../../core/error-text';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { piSessionsRoot } from '../../session/catalog';
import { type SurfaceDeps } from './surface-deps';

export const id = 'arbor.openSessionFile';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  let file: string | undefined;
  if (arg instanceof vscode.Uri) file = arg.fsPath;
  else if (typeof arg === 'string' && arg.trim()) file = arg;
  if (!file) {
    const piRoot = piSessionsRoot();
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Open Session File'),
      openLabel: vscode.l10n.t('Open Session'),
      canSelectMany: false,
      filters: { [vscode.l10n.t('Session files')]: ['jsonl'] },
      ...(existsSync(piRoot) ? { defaultUri: vscode.Uri.file(piRoot) } : {}),
    });
    if (!picked?.[0]) return false;
    file = picked[0].fsPath;
  }
  try {
    await deps.app.openSession(file);
    deps.log.info(`opened session ${file}`);
    deps.sessions.refresh();
    return true;
  } catch (error) {
    deps.log.warn(`could not open session ${file}: ${errorText(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the session: {0}', errorText(error)));
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
