// Sessions view: open the clicked session (no-op for the current one).
import * as vscode from 'vscode';
import { run as openSessionFile } from './open-session-file';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.sessions.open';

export function sessionFileFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg;
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (arg && typeof arg === 'object' && typeof (arg as { file?: unknown }).file === 'string') return (arg as { file: string }).file;
  return undefined;
}

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  const file = sessionFileFrom(arg);
  if (!file) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No session was given.'));
    return false;
  }
  if (deps.app.store?.file === file) return true;
  return openSessionFile(deps, file);
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
