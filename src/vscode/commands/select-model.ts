// "Arbor: Select Model": a QuickPick of every configured model with its context window and price.
import * as vscode from 'vscode';
import { offerApiKey, pickModelKey, selectModel } from '../model-selection';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.selectModel';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (key?: unknown) => {
    if (typeof key === 'string') {
      try {
        await selectModel(deps.app, key);
        return true;
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return false;
      }
    }
    const picked = await pickModelKey(deps.app, vscode.l10n.t('Arbor: Select Model'));
    if (!picked) return false;
    const view = await selectModel(deps.app, picked);
    if (view.keyMissing) void offerApiKey(view);
    return true;
  });
}
