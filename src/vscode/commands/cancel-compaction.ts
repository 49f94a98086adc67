// "Arbor: Cancel Compaction": stops a running compaction (the status bar spinner's click).
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.cancelCompaction';

export function run(deps: SurfaceDeps): boolean {
  const cancelled = deps.app.compaction.cancel();
  if (!cancelled) void vscode.window.showInformationMessage(vscode.l10n.t('No compaction is running.'));
  return cancelled;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
