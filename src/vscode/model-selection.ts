// Choosing a model, shared by the chat (its model picker, Retry with another model: chat-requests.ts) and
// "Arbor: Select Model" (commands/select-model.ts), both on a chat's `models` part (src/app/model-choice.ts): the QuickPick of models, the app's switch saved in
// `arbor.model`, and what both say when the model's provider has no key. Kept apart from the command so
// the chat imports no command module.
import * as vscode from 'vscode';
import type { ModelView } from '../app/app-types';
import type { AppOutcome } from '../app/app-outcome';
import type { ModelChoiceApi } from '../app/model-choice';
import { providerById } from '../llm/providers';
import { saveModelSetting } from './settings/arbor-settings';

/**
 * Switches the app's model and saves the choice in `arbor.model` where it is set (the workspace's value
 * wins over the user's, so writing the user's alone would be overridden when settings are read again).
 */
export async function selectModel(models: Pick<ModelChoiceApi, 'set'>, key: string): Promise<AppOutcome<ModelView>> {
  const outcome = await models.set(key);
  if (outcome.kind === 'done') await saveModelSetting(outcome.value.key);
  return outcome;
}

/** What both pickers say when the chosen model's provider has no key (with a Set API Key action). */
export function keyMissingText(view: ModelView): string {
  return vscode.l10n.t('{0} needs an API key for {1}, and none is set.', view.name, providerById(view.provider)?.displayName ?? view.provider);
}

function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M` : `${Math.round(n / 1000)}k`;
}

export function describeModel(model: ModelView): string {
  const price = model.pricing.input === 0 && model.pricing.output === 0 ? vscode.l10n.t('free') : `$${model.pricing.input} / $${model.pricing.output} per 1M in/out`;
  return `${tokens(model.contextWindow)} context · ${price}`;
}

export async function offerApiKey(view: ModelView): Promise<void> {
  const setKey = vscode.l10n.t('Set API Key…');
  if ((await vscode.window.showWarningMessage(keyMissingText(view), setKey)) === setKey) {
    await vscode.commands.executeCommand('arbor.setApiKey', { provider: view.provider });
  }
}

function pickDescription(model: ModelView, current: string | undefined): string {
  const marks = [model.key, ...(model.keyMissing ? [vscode.l10n.t('no key')] : []), ...(model.key === current ? [vscode.l10n.t('current')] : [])];
  return marks.join(' · ');
}

/** A QuickPick of every model (the current one marked); the chosen model's key, or undefined. */
export async function pickModelKey(models: Pick<ModelChoiceApi, 'available' | 'currentKey'>, title: string): Promise<string | undefined> {
  const current = models.currentKey;
  const items = models.available().map((model) => ({
    label: model.name,
    description: pickDescription(model, current),
    detail: describeModel(model),
    key: model.key,
  }));
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true }))?.key;
}
