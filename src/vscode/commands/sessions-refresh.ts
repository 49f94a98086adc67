// Sessions view: re-read the sessions folder.
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.sessions.refresh';

export function run(deps: SurfaceDeps): void {
  deps.sessions.refresh();
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
