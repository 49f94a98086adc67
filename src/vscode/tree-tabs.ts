// Conversation Tree editor tabs ("Arbor: Open Conversation Tree"): a session's tree drawn as a graph
// (webview/render/tree-page.ts) in an editor tab, one tab per session app. The host side of a tab is the
// chat's own (chat-view.ts) bound to the tab's webview, so the tree, its patches, a switch (navigate with
// the summary and files choice) and its progress work exactly as in the chat; the page shows only the tree.
// What only a chat shows is not posted to the tab, and the text of a message switched to for editing goes
// to the chat's input. After a window reload the serializer brings a tab back on the chat that shows the
// session the tab showed (its saved state names the file; editor-chat-memory.ts when the state is missing).
import * as vscode from 'vscode';
import type { ArborApp } from '../app/arbor-app';
import type { ArborChats } from '../app/chats';
import type { HostToWebviewMessage } from '../protocol';
import { isFile, sessionFileOf } from './chat-panels';
import { ChatViewProvider, type ChatViewDeps } from './chat-view';
import type { EditorChatMemory } from './editor-chat-memory';
import type { Logger } from './log';
import { renderChatHtml } from './webview-html';
import type { ImageContent } from '../core/messages';

export interface TreeTabsDeps {
  extensionUri: vscode.Uri;
  chats: ArborChats;
  log: Logger;
  /** the host deps of a chat showing `app` (its state, log); the tab answers no approvals */
  chatDeps: (app: ArborApp) => ChatViewDeps;
  /** puts text in the chat's input (after a switch to a user message, to edit and resend it) */
  setChatInput: (text: string, images?: readonly ImageContent[]) => Promise<unknown>;
  /** the sessions the tabs show, for tabs restored without a saved state */
  memory: EditorChatMemory;
}

/** Posts the tree page never shows (it has no conversation and no input). */
const CHAT_ONLY: ReadonlySet<HostToWebviewMessage['type']> = new Set(['conversation', 'conversationPage', 'agentEvent', 'labels', 'editorText']);
/** how long a restored tab waits for the chat of its session to be restored too (the side bar, a chat tab) */
const HOLDER_WAIT_MS = 10_000;

/** One tab: the panel and the chat host bound to it. */
export interface ConversationTreeTab {
  panel: vscode.WebviewPanel;
  host: ChatViewProvider;
}

export class ConversationTreeTabs implements vscode.Disposable, vscode.WebviewPanelSerializer {
  static readonly viewType = 'arbor.conversationTree';
  private readonly open = new Map<ArborApp, ConversationTreeTab>();
  private readonly registration: vscode.Disposable;

  constructor(private readonly deps: TreeTabsDeps) {
    this.registration = vscode.window.registerWebviewPanelSerializer(ConversationTreeTabs.viewType, this);
  }

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
    return this.bind(panel, app);
  }

  /**
   * After a reload: the tab shows the tree of the chat that has the session it showed, once that chat is
   * restored; without one (the file is gone, or no chat reopened it) the focused chat's, like the command.
   */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = sessionFileOf(state);
    if (saved) this.deps.memory.claim(saved);
    const file = saved ?? (await this.deps.memory.unclaimed((candidate) => this.tabOf(candidate) !== undefined));
    const holder = file && (await isFile(file)) ? await this.holderOf(file) : undefined;
    this.deps.log.info(`conversation tree: restoring ${holder ? file : "the focused chat's session"}${saved ? '' : ' (the tab saved no state)'}`);
    const app = holder ?? this.deps.chats.focused;
    const existing = this.open.get(app);
    if (existing) {
      panel.dispose(); // that chat's tree already has its tab
      existing.panel.reveal();
      return;
    }
    this.bind(panel, app);
  }

  private bind(panel: vscode.WebviewPanel, app: ArborApp): ConversationTreeTab {
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'arbor.svg');
    const host = new ChatViewProvider({ ...this.deps.chatDeps(app), app });
    // The chat host binds a webview and its disposal only (resolveWebviewView reads no other member), which
    // a panel has as well.
    const webview = this.filtered(panel.webview);
    host.resolveWebviewView({ webview, onDidDispose: panel.onDidDispose } as unknown as vscode.WebviewView);
    panel.webview.html = renderChatHtml(panel.webview, this.deps.extensionUri, undefined, 'tree');
    const tab = { panel, host };
    this.open.set(app, tab);
    const sessionChanged = app.onDidChange((change) => {
      if (change.kind === 'session') this.remember();
    });
    panel.onDidDispose(() => {
      sessionChanged.dispose();
      host.dispose();
      if (this.open.get(app) === tab) this.open.delete(app);
      this.remember();
    });
    this.remember();
    return tab;
  }

  /** The tab showing `file`'s tree, if any. */
  private tabOf(file: string): ConversationTreeTab | undefined {
    return [...this.open].find(([app]) => app.session.sessionView()?.file === file)?.[1];
  }

  /** The chat that has `file` open, waiting a while for the chats being restored with this tab. */
  private async holderOf(file: string): Promise<ArborApp | undefined> {
    const deadline = Date.now() + HOLDER_WAIT_MS;
    for (;;) {
      const holder = this.deps.chats.holding(file);
      if (holder || Date.now() >= deadline) return holder;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The sessions the tabs show, for tabs that come back without a state. */
  private remember(): void {
    this.deps.memory.save([...this.open.keys()].flatMap((app) => app.session.sessionView()?.file ?? []));
  }

  /** The panel's webview, with chat-only posts dropped and the edit text sent to the chat instead. */
  private filtered(webview: vscode.Webview): vscode.Webview {
    const setChatInput = this.deps.setChatInput;
    const postMessage = (message: HostToWebviewMessage): Thenable<boolean> => {
      if (message.type === 'editorText') return setChatInput(message.text, message.images?.map(({ mimeType, data }) => ({ type: 'image' as const, mimeType, data }))).then(() => true);
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
    this.deps.memory.shutdown();
    this.registration.dispose();
    for (const tab of [...this.open.values()]) tab.panel.dispose();
    this.open.clear();
  }
}
