// "Arbor: New Session": an empty session (its file is written with the first message) in the focused chat.
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.newSession';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => deps.app.newSession());
}
