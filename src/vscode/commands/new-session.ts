// "Arbor: New Session": an empty session (its file is written with the first message) in the focused chat.
import * as vscode from 'vscode';
import type { ArborApp } from '../../app/arbor-app';
import type { ArborChats } from '../../app/chats';

export const id = 'arbor.newSession';

export function register(context: vscode.ExtensionContext, chats: ArborChats, reveal: (app: ArborApp) => Thenable<unknown>): vscode.Disposable {
  return vscode.commands.registerCommand(id, async () => {
    const app = chats.focused;
    const session = await app.newSession();
    await reveal(app);
    return session.file;
  });
}
