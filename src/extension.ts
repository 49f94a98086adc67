// Extension entry point: wires the VS Code adapters together. Keep it thin: anything with logic lives in
// src/vscode/ (adapters) or the vscode-free core modules. Provider SDKs and the tokenizer are loaded
// lazily by the modules that need them (dynamic import), never here.
import * as vscode from 'vscode';
import { setPromptRoot } from './core/prompts';
import type { ArborApi } from './vscode/api';
import { ChatViewProvider } from './vscode/chat-view';
import { collectChatState, onDidChangeChatState } from './vscode/chat-state';
import * as openChat from './vscode/commands/open-chat';
import { createLogger } from './vscode/log';
import { SessionTreeProvider } from './vscode/session-tree';

export function activate(context: vscode.ExtensionContext): ArborApi {
  const log = createLogger(context);
  setPromptRoot(vscode.Uri.joinPath(context.extensionUri, 'prompts').fsPath);

  const sessionTree = new SessionTreeProvider();
  const chatView = new ChatViewProvider({
    extensionUri: context.extensionUri,
    log,
    getState: () => collectChatState(context),
    showSessionTree: () => vscode.commands.executeCommand(`${SessionTreeProvider.viewId}.focus`),
  });

  context.subscriptions.push(
    sessionTree,
    chatView,
    vscode.window.createTreeView(SessionTreeProvider.viewId, { treeDataProvider: sessionTree }),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chatView, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    onDidChangeChatState(() => void chatView.postState()),
    openChat.register(),
  );

  log.info(`Arbor ${collectChatState(context).extensionVersion} activated`);
  return { chatView, sessionTree };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
