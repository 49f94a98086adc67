// The side bar's chat: resolves the `arbor.chat` webview view and hands it to a ChatController (the same
// host side the editor tabs use, chat-panels.ts) bound to the primary chat. Only the container is its own.
import * as vscode from 'vscode';
import { ChatController, type ChatControllerDeps } from './chat-controller';

export type { ChatViewStats } from './chat-controller';
export type ChatViewDeps = ChatControllerDeps;

export class ChatViewProvider extends ChatController implements vscode.WebviewViewProvider {
  static readonly viewId = 'arbor.chat';

  private readonly resolvedEmitter = new vscode.EventEmitter<void>();
  /** Fires when VS Code resolves the view (it is shown for the first time, or again after disposal). */
  readonly onDidResolve = this.resolvedEmitter.event;

  resolveWebviewView(view: vscode.WebviewView): void {
    const attached = this.attach(view.webview);
    const disposed = view.onDidDispose(() => {
      attached.dispose();
      disposed.dispose();
    });
    this.resolvedEmitter.fire();
  }

  override dispose(): void {
    this.resolvedEmitter.dispose();
    super.dispose();
  }
}
