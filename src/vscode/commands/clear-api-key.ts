// "Arbor: Clear API Key": removes a provider's key from SecretStorage.
import * as vscode from 'vscode';
import { KEY_PROVIDERS } from '../secrets';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.clearApiKey';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (args?: { provider?: string }) => {
    const keys = deps.keys;
    let provider = typeof args?.provider === 'string' ? args.provider : undefined;
    if (provider !== undefined && !KEY_PROVIDERS.some((p) => p.id === provider)) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Unknown provider "{0}".', provider));
      return false;
    }
    if (!provider) {
      const stored = [];
      for (const p of KEY_PROVIDERS) if (await keys.hasKey(p.id)) stored.push({ label: p.label, provider: p.id });
      if (stored.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Arbor has no stored API keys.'));
        return false;
      }
      const picked = await vscode.window.showQuickPick(stored, { title: vscode.l10n.t('Arbor: Clear API Key') });
      if (!picked) return false;
      provider = picked.provider;
    }
    if (!(await keys.hasKey(provider))) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No API key is stored for {0}.', provider));
      return false;
    }
    await keys.clearKey(provider);
    await deps.app.applySettings();
    void vscode.window.showInformationMessage(vscode.l10n.t('Arbor: API key for {0} removed.', provider));
    return true;
  });
}
