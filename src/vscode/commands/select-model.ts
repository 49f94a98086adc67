// "Arbor: Select Model": a QuickPick of every configured model with its context window and price.
import * as vscode from 'vscode';
import type { ModelView } from '../../app/app-types';
import { keyMissingText, selectModel } from '../model-selection';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.selectModel';

function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M` : `${Math.round(n / 1000)}k`;
}

export function describeModel(model: ModelView): string {
  const price = model.pricing.input === 0 && model.pricing.output === 0 ? vscode.l10n.t('free') : `$${model.pricing.input} / $${model.pricing.output} per 1M in/out`;
  return `${tokens(model.contextWindow)} context · ${price}`;
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
