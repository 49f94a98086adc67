// Host side of the chat panel: resolves the `arbor.chat` webview view, validates every message the
// webview posts (invalid ones are logged and dropped) and answers the ready handshake with the state.
import * as vscode from 'vscode';
import {
  describeRaw,
  parseWebviewMessage,
  type ChatState,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from '../protocol';
import type { Logger } from './log';
import { renderChatHtml, webviewResourceRoots } from './webview-html';

export interface ChatViewDeps {
  extensionUri: vscode.Uri;
  log: Logger;
  getState: () => ChatState;
  showSessionTree: () => Thenable<unknown>;
}

/** Counters tests and diagnostics read; they only ever grow. */
export interface ChatViewStats {
  accepted: number;
  rejected: number;
  handshakes: number;
  posted: number;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'arbor.chat';

  readonly stats: ChatViewStats = { accepted: 0, rejected: 0, handshakes: 0, posted: 0 };
  private view: vscode.WebviewView | undefined;
  private webviewReady = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly resolvedEmitter = new vscode.EventEmitter<void>();
  private readonly handshakeEmitter = new vscode.EventEmitter<void>();
  /** Fires when VS Code resolves the view (it is shown for the first time, or again after disposal). */
  readonly onDidResolve = this.resolvedEmitter.event;
  /** Fires after the webview said `ready` and was sent the state. */
  readonly onDidHandshake = this.handshakeEmitter.event;

  constructor(private readonly deps: ChatViewDeps) {}

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  get isReady(): boolean {
    return this.webviewReady;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.webviewReady = false;
    view.webview.options = { enableScripts: true, localResourceRoots: webviewResourceRoots(this.deps.extensionUri) };
    view.webview.html = renderChatHtml(view.webview, this.deps.extensionUri);
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.webviewReady = false;
        }
        vscode.Disposable.from(...subscriptions).dispose();
      }),
    ];
    this.resolvedEmitter.fire();
  }

  /**
   * Entry point for everything the webview posts. Returns whether the message was accepted; an invalid
   * message is logged and dropped without side effects.
   */
  async receive(raw: unknown): Promise<boolean> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.stats.rejected++;
      this.deps.log.warn(`chat view: dropped invalid message from webview (${parsed.reason}): ${describeRaw(raw)}`);
      return false;
    }
    this.stats.accepted++;
    try {
      await this.handle(parsed.message);
    } catch (error) {
      this.deps.log.error(`chat view: handling "${parsed.message.type}" failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
    return true;
  }

  /** Sends the current state if the webview is listening; later state changes call this too. */
  async postState(): Promise<boolean> {
    if (!this.webviewReady) return false;
    return this.post({ type: 'state', state: this.deps.getState() });
  }

  dispose(): void {
    this.resolvedEmitter.dispose();
    this.handshakeEmitter.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
  }

  private async handle(message: WebviewToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.webviewReady = true;
        await this.postState();
        this.stats.handshakes++;
        this.handshakeEmitter.fire();
        return;
      case 'showSessionTree':
        await this.deps.showSessionTree();
        return;
      case 'log':
        this.deps.log[message.level](`chat webview: ${message.message}`);
        return;
    }
  }

  private async post(message: HostToWebviewMessage): Promise<boolean> {
    if (!this.view) return false;
    const delivered = await this.view.webview.postMessage(message);
    if (delivered) this.stats.posted++;
    return delivered;
  }
}
