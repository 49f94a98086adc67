// Choosing a model, shared by the chat's model picker (chat-requests.ts) and "Arbor: Select Model"
// (commands/select-model.ts): the app's switch saved in `arbor.model`, and what both say when the model's
// provider has no key. Kept apart from the command so the chat imports no command module.
import * as vscode from 'vscode';
import type { ModelView } from '../app/app-types';
import { providerById } from '../llm/providers';

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
