// "Arbor: Toggle Auto-Compaction": flips arbor.compaction.enabled where it is set (workspace folder,
// workspace, else user settings). Manual compaction stays available either way.
import * as vscode from 'vscode';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.toggleAutoCompaction';

export async function run(deps: SurfaceDeps): Promise<boolean> {
  const config = vscode.workspace.getConfiguration('arbor.compaction');
  const inspected = config.inspect<boolean>('enabled');
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  const next = !deps.settings().compaction.enabled;
  await config.update('enabled', next, target);
  deps.log.info(`automatic compaction ${next ? 'enabled' : 'disabled'}`);
  void vscode.window.showInformationMessage(
    next ? vscode.l10n.t('Automatic compaction is on.') : vscode.l10n.t('Automatic compaction is off. You can still compact with "Arbor: Compact Session".'),
  );
  return next;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
