// "Insert This Branch's Summary Here" (Session Tree, on entries of other branches): summarizes that
// branch (down to its newest tip) and appends the summary at the current position, without leaving it.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import { TreeModel } from '../tree/tree-model';
import { trackSummarizing } from './branch-switch';
import { entryIdFrom, requireEntry, requireStore, withCancellableProgress, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.insertBranchSummary';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<'inserted' | 'cancelled' | 'refused' | 'failed' | 'invalid'> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const entry = requireEntry(deps, store, entryIdFrom(arg));
  if (!entry) return 'invalid';
  const model = deps.tree.treeModel?.source === store ? deps.tree.treeModel : new TreeModel(store);
  const source = model.newestTipBelow(entry.id);
  if (model.isOnActivePath(source)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This entry is on the current branch: pick an entry of another branch to carry its summary here.'));
    return 'invalid';
  }
  const instructions = await vscode.window.showInputBox({
    title: vscode.l10n.t("Insert this branch's summary here"),
    prompt: vscode.l10n.t('Optional: what should the summary focus on? Leave empty for a general summary.'),
    ignoreFocusOut: true,
  });
  if (instructions === undefined) return 'cancelled';
  try {
    const outcome = await trackSummarizing(
      deps,
      withCancellableProgress(vscode.l10n.t('Summarizing the other branch…'), (signal) =>
        deps.app.tree.insertBranchSummary(source, { ...(instructions.trim() ? { customInstructions: instructions.trim() } : {}), signal }),
      ),
    );
    if (outcome.kind === 'refused') {
      showRefusal(outcome, deps.log);
      return 'refused';
    }
    deps.log.info(`carried the summary of the branch ending at ${source} to ${store.getLeafId()}`);
    return 'inserted';
  } catch (error) {
    deps.log.error(`insert-branch-summary: ${stackOf(error)}`);
    const message = errorText(error);
    if (/cancel/i.test(message)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Summary cancelled. Nothing was added.'));
      return 'cancelled';
    }
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not summarize the branch: {0}. Nothing was added.', message.replace(/\.$/, '')));
    return 'failed';
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
