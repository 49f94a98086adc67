// "Arbor: Add File to Chat" (Explorer context menu, one or several files): each file as an @-mention in the
// focused chat's draft, so its content goes with the message when it is sent. Folders are skipped, and a path
// an @-mention cannot carry (spaces, quotes) is said so rather than added half.
import * as vscode from 'vscode';
import { mentionOf } from '../../app/editor-context';
import { chatPath } from '../editor/code-spans';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.addFileToChat';

/** The URIs VS Code passes an Explorer command: the clicked one, and all selected ones when several are. */
function urisOf(clicked: unknown, selected: unknown): vscode.Uri[] {
  if (Array.isArray(selected) && selected.length > 0) return selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri);
  if (clicked instanceof vscode.Uri) return [clicked];
  const active = vscode.window.activeTextEditor?.document.uri;
  return active ? [active] : [];
}

async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(uri)).type === vscode.FileType.File;
  } catch {
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (clicked?: unknown, selected?: unknown) => {
    const mentions: string[] = [];
    const refused: string[] = [];
    for (const uri of urisOf(clicked, selected)) {
      if (!(await isFile(uri))) continue;
      const path = chatPath(uri);
      const mention = mentionOf(path);
      if (mention) mentions.push(mention);
      else refused.push(path);
    }
    if (refused.length > 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('These paths cannot be @-mentioned (spaces or quotes): {0}. Open the file and use Add Selection to Chat instead.', refused.join(', ')));
    }
    if (mentions.length === 0) return false;
    return (await deps.app.addToChatInput?.(mentions.join(' '))) ?? false;
  });
}
