// "Arbor: Select Model": a QuickPick of every configured model with its context window and price.
import * as vscode from 'vscode';
import { doneOrShown } from '../refusals';
import { offerApiKey, pickModelKey, selectModel } from '../model-selection';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.selectModel';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (key?: unknown) => {
    if (typeof key === 'string') {
      return doneOrShown(await selectModel(deps.app.models, key), deps.log) !== undefined;
    }
    const picked = await pickModelKey(deps.app.models, vscode.l10n.t('Arbor: Select Model'));
    if (!picked) return false;
    const selected = doneOrShown(await selectModel(deps.app.models, picked), deps.log);
    if (selected?.value.keyMissing) void offerApiKey(selected.value);
    return selected !== undefined;
  });
}
