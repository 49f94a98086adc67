// "Arbor: Select Model": a QuickPick of every configured model with its context window and price.
import * as vscode from 'vscode';
import type { ModelView } from '../../app/app-types';
import { providerById } from '../../llm/providers';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.selectModel';

function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M` : `${Math.round(n / 1000)}k`;
}

export function describeModel(model: ModelView): string {
  const price = model.pricing.input === 0 && model.pricing.output === 0 ? vscode.l10n.t('free') : `$${model.pricing.input} / $${model.pricing.output} per 1M in/out`;
  return `${tokens(model.contextWindow)} context · ${price}`;
}

/**
 * Switches the app's model and saves the choice in `arbor.model` where it is set (the workspace's value
 * wins over the user's, so writing the user's alone would be overridden when settings are read again).
 */
export async function selectModel(app: { setModel(key: string): Promise<ModelView> }, key: string): Promise<ModelView> {
  const view = await app.setModel(key);
  const config = vscode.workspace.getConfiguration('arbor');
  const inWorkspace = config.inspect<string>('model')?.workspaceValue !== undefined;
  if (config.get<string>('model') !== view.key) await config.update('model', view.key, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  return view;
}

/** What both pickers say when the chosen model's provider has no key (with a Set API Key action). */
export function keyMissingText(view: ModelView): string {
  return vscode.l10n.t('{0} needs an API key for {1}, and none is set.', view.name, providerById(view.provider)?.displayName ?? view.provider);
}

async function offerApiKey(view: ModelView): Promise<void> {
  const setKey = vscode.l10n.t('Set API Key…');
  if ((await vscode.window.showWarningMessage(keyMissingText(view), setKey)) === setKey) {
    await vscode.commands.executeCommand('arbor.setApiKey', { provider: view.provider });
  }
}

function pickDescription(model: ModelView, current: string | undefined): string {
  const marks = [model.key, ...(model.keyMissing ? [vscode.l10n.t('no key')] : []), ...(model.key === current ? [vscode.l10n.t('current')] : [])];
  return marks.join(' · ');
}

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
    const current = deps.app.currentModelKey();
    const items = deps.app.models().map((model) => ({
      label: model.name,
      description: pickDescription(model, current),
      detail: describeModel(model),
      key: model.key,
    }));
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: Select Model'), matchOnDescription: true });
    if (!picked) return false;
    const view = await selectModel(deps.app, picked.key);
    if (view.keyMissing) void offerApiKey(view);
    return true;
  });
}
