// "Arbor: Set API Key": pick a provider, type the key in a password box; it goes to SecretStorage only.
import * as vscode from 'vscode';
import { KEY_PROVIDERS } from '../secrets';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.setApiKey';

export interface SetApiKeyArgs {
  /** skip the QuickPick (tests, walkthrough links) */
  provider?: string;
  /** skip the InputBox (programmatic use); stored like a typed key and never logged */
  key?: string;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (args?: SetApiKeyArgs) => {
    const keys = deps.keys;
    let provider = typeof args?.provider === 'string' ? args.provider : undefined;
    if (provider !== undefined && !KEY_PROVIDERS.some((p) => p.id === provider)) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Unknown provider "{0}".', provider));
      return false;
    }
    if (!provider) {
      const items = await Promise.all(
        KEY_PROVIDERS.map(async (p) => ({ label: p.label, description: (await keys.hasKey(p.id)) ? vscode.l10n.t('key stored') : '', provider: p.id })),
      );
      const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: Set API Key'), placeHolder: vscode.l10n.t('Which provider?') });
      if (!picked) return false;
      provider = picked.provider;
    }
    const given = typeof args?.key === 'string' && args.key.trim() !== '' && !/\s/.test(args.key.trim()) ? args.key : undefined;
    const key = given ?? await vscode.window.showInputBox({
      title: vscode.l10n.t('API key for {0}', provider),
      prompt: vscode.l10n.t('Stored in VS Code Secret Storage (your OS keychain), never in settings or session files.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a key (or press Escape to cancel).') : /\s/.test(value.trim()) ? vscode.l10n.t('A key has no spaces.') : undefined),
    });
    if (key === undefined || key.trim() === '') return false;
    await keys.setKey(provider, key);
    await deps.app.applySettings();
    void vscode.window.showInformationMessage(vscode.l10n.t('Arbor: API key for {0} stored.', provider));
    return true;
  });
}
