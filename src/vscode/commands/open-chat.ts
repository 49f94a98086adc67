// "Arbor: Open Chat": reveals the Arbor container and focuses the chat view.
import * as vscode from 'vscode';
import { ChatViewProvider } from '../chat-view';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.openChat';

export function register(_deps: SurfaceDeps): vscode.Disposable {
  // Every contributed view gets a `<viewId>.focus` command that opens its container and focuses it.
  return vscode.commands.registerCommand(id, () => vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`));
}
