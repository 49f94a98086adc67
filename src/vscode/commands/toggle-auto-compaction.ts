// "Arbor: Toggle Auto-Compaction": flips arbor.compaction.enabled where it is set (workspace folder,
// workspace, else user settings). Manual compaction stays available either way.
import * as vscode from 'vscode';
import { saveAutoCompactionSetting } from '../settings/arbor-settings';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.toggleAutoCompaction';

export async function run(deps: SurfaceDeps): Promise<boolean> {
  const next = !deps.settings().compaction.enabled;
  await saveAutoCompactionSetting(next);
  deps.log.info(`automatic compaction ${next ? 'enabled' : 'disabled'}`);
  void vscode.window.showInformationMessage(
    next ? vscode.l10n.t('Automatic compaction is on.') : vscode.l10n.t('Automatic compaction is off. You can still compact with "Arbor: Compact Session".'),
  );
  return next;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
