// "Arbor: Label Entry…" / "Label…" (Session Tree): add, rename or remove (empty text) an entry's label.
// From the palette the entry is picked from the current branch.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import { pickPathEntry } from './entry-picker';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.labelEntry';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<'labelled' | 'removed' | 'cancelled' | 'refused' | 'invalid'> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const entryId = arg === undefined ? await pickPathEntry(store, vscode.l10n.t('Label which entry?')) : entryIdFrom(arg);
  if (arg === undefined && entryId === undefined) return 'cancelled';
  const entry = requireEntry(deps, store, entryId);
  if (!entry) return 'invalid';
  const current = store.getLabel(entry.id);
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Label'),
    prompt: current ? vscode.l10n.t('Rename the label, or clear the text to remove it.') : vscode.l10n.t('A short name for this point of the conversation.'),
    value: current ?? '',
    validateInput: (value) => (value.length > 200 ? vscode.l10n.t('Keep labels under 200 characters.') : undefined),
  });
  if (text === undefined) return 'cancelled';
  const label = text.trim();
  if (label === '' && current === undefined) return 'cancelled';
  try {
    const outcome = await deps.app.tree.label(entry.id, label === '' ? undefined : label);
    if (outcome.kind === 'refused') {
      showRefusal(outcome, deps.log);
      return 'refused';
    }
    deps.log.info(label === '' ? `label removed from ${entry.id}` : `label "${label}" set on ${entry.id}`);
    return label === '' ? 'removed' : 'labelled';
  } catch (error) {
    deps.log.error(`label-entry: ${stackOf(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not save the label: {0}', errorText(error)));
    return 'invalid';
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
