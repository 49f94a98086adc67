// "Arbor: Show Logs": the Arbor output channel.
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.showLogs';

export function run(deps: SurfaceDeps): void {
  deps.log.show?.(true);
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
