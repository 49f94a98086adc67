// "Arbor: New Session": an empty session (its file is written with the first message) shown in the chat.
import * as vscode from 'vscode';
import type { ArborApp } from '../../app/arbor-app';

export const id = 'arbor.newSession';

export function register(context: vscode.ExtensionContext, app: ArborApp): vscode.Disposable {
  return vscode.commands.registerCommand(id, async () => {
    const session = await app.newSession();
    await vscode.commands.executeCommand('arbor.chat.focus');
    return session.file;
  });
}
