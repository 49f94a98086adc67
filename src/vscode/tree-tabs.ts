// Conversation Tree editor tabs ("Arbor: Open Conversation Tree"): a session's tree drawn as a graph
// (webview/render/tree-page.ts) in an editor tab, one tab per session app. The host side of a tab is the
// chat's own (chat-view.ts) bound to the tab's webview, so the tree, its patches, a switch (navigate with
// the summary and files choice) and its progress work exactly as in the chat; the page shows only the tree.
// What only a chat shows is not posted to the tab, and the text of a message switched to for editing goes
// to the chat's input.
import * as vscode from 'vscode';
import type { ArborApp } from '../app/arbor-app';
import type { HostToWebviewMessage } from '../protocol';
import { ChatViewProvider, type ChatViewDeps } from './chat-view';
import { renderChatHtml } from './webview-html';

export interface TreeTabsDeps {
  extensionUri: vscode.Uri;
  /** the host deps of a chat showing `app` (its state, log); the tab answers no approvals */
  chatDeps: (app: ArborApp) => ChatViewDeps;
  /** puts text in the chat's input (after a switch to a user message, to edit and resend it) */
  setChatInput: (text: string) => Promise<unknown>;
}

/** Posts the tree page never shows (it has no conversation and no input). */
const CHAT_ONLY: ReadonlySet<HostToWebviewMessage['type']> = new Set(['conversation', 'conversationPage', 'agentEvent', 'labels', 'editorText']);

/** One tab: the panel and the chat host bound to it. */
export interface ConversationTreeTab {
  panel: vscode.WebviewPanel;
  host: ChatViewProvider;
}

export class ConversationTreeTabs implements vscode.Disposable {
  static readonly viewType = 'arbor.conversationTree';
  private readonly open = new Map<ArborApp, ConversationTreeTab>();

  constructor(private readonly deps: TreeTabsDeps) {}

  /** The open tabs (tests and diagnostics). */
  get tabs(): ConversationTreeTab[] {
    return [...this.open.values()];
  }

  /** Shows the tree of `app` in its tab (opened in the active editor group the first time). */
  show(app: ArborApp): ConversationTreeTab {
    const existing = this.open.get(app);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(ConversationTreeTabs.viewType, vscode.l10n.t('Conversation Tree'), vscode.ViewColumn.Active, { retainContextWhenHidden: false });
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'arbor.svg');
    const host = new ChatViewProvider({ ...this.deps.chatDeps(app), app });
    // The chat host binds a webview and its disposal only (resolveWebviewView reads no other member), which
    // a panel has as well.
    const webview = this.filtered(panel.webview);
    host.resolveWebviewView({ webview, onDidDispose: panel.onDidDispose } as unknown as vscode.WebviewView);
    panel.webview.html = renderChatHtml(panel.webview, this.deps.extensionUri, undefined, 'tree');
    const tab = { panel, host };
    this.open.set(app, tab);
    panel.onDidDispose(() => {
      host.dispose();
      if (this.open.get(app) === tab) this.open.delete(app);
    });
    return tab;
  }

  /** The panel's webview, with chat-only posts dropped and the edit text sent to the chat instead. */
  private filtered(webview: vscode.Webview): vscode.Webview {
    const setChatInput = this.deps.setChatInput;
    const postMessage = (message: HostToWebviewMessage): Thenable<boolean> => {
      if (message.type === 'editorText') return setChatInput(message.text).then(() => true);
      return CHAT_ONLY.has(message.type) ? Promise.resolve(true) : webview.postMessage(message);
    };
    return new Proxy(webview, {
      get: (target, key) => {
        if (key === 'postMessage') return postMessage;
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set: (target, key, value) => Reflect.set(target, key, value),
    });
  }

  dispose(): void {
    for (const tab of [...this.open.values()]) tab.panel.dispose();
    this.open.clear();
  }
}
