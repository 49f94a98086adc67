// Collects the ChatState the webview renders from the VS Code environment. Kept separate from the view
// provider so later features (conversation, model selection) extend the state in one place.
import * as vscode from 'vscode';
import type { ChatState } from '../protocol';

export function collectChatState(context: vscode.ExtensionContext): ChatState {
  const version = (context.extension.packageJSON as { version?: unknown }).version;
  return {
    extensionVersion: typeof version === 'string' ? version : '0.0.0',
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.name),
    workspaceTrusted: vscode.workspace.isTrusted,
    // No model registry is wired into the host yet; the view says so instead of inventing a model.
    modelLabel: null,
  };
}

/** Fires when something collectChatState reads changes. */
export function onDidChangeChatState(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeWorkspaceFolders(listener),
    vscode.workspace.onDidGrantWorkspaceTrust(listener),
  );
}
