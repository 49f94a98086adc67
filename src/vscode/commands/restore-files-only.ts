// "Restore Files Only" (Session Tree): the files come back to this node's state while the conversation
// stays where it is. Files changed outside Arbor, and protected files (with a warning), are listed for
// a per-file choice, none ticked; nothing runs in Restricted Mode.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import type { FilesRestoreResult } from '../../app/checkpoint-service';
import { askOverwrite, hasFileWork } from '../checkpoints/files-choice';
import { planRows } from '../checkpoints/switch-diff';
import { showFileChanges } from '../checkpoints/file-diff';
import { reportFiles } from './branch-switch';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.restoreFilesOnly';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<FilesRestoreResult | undefined> {
  const store = requireStore(deps);
  const entry = store ? requireEntry(deps, store, entryIdFrom(arg)) : undefined;
  if (!store || !entry) return undefined;
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Files are not restored in Restricted Mode.'));
    return undefined;
  }
  const preview = await deps.app.tree.previewRestoreFiles(entry.id);
  if (!hasFileWork(preview)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The files already match this point.'));
    return undefined;
  }
  if (!(await confirm(preview.plan.changes.length + preview.plan.outsideChanges.length + preview.plan.protectedChanges.length, () => showFileChanges(vscode.l10n.t('Files this restore changes'), planRows(preview.plan))))) return undefined;
  const overwrite = await askOverwrite(preview.plan);
  if (!overwrite) return undefined;
  try {
    const outcome = await deps.app.tree.restoreFilesOnly(entry.id, overwrite);
    if (outcome.kind === 'refused') return void showRefusal(outcome, deps.log);
    const result = outcome.value;
    if (result.kind === 'restored') reportFiles(result);
    else void vscode.window.showErrorMessage(vscode.l10n.t('The files were not restored: {0}', result.message));
    return result;
  } catch (error) {
    deps.log.error(`restore-files-only: ${stackOf(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('The files were not restored: {0}', errorText(error)));
    return undefined;
  }
}

async function confirm(count: number, show: () => Promise<void>): Promise<boolean> {
  const restore = vscode.l10n.t('Restore');
  const changes = vscode.l10n.t('Show changes');
  for (;;) {
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Restore {0} file(s) to this point? The conversation stays where it is.', count), { modal: true }, restore, changes);
    if (answer !== changes) return answer === restore;
    await show();
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
