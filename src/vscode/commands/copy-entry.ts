// "Copy" (Session Tree): the entry's text to the clipboard.
import * as vscode from 'vscode';
import { presentEntry } from '../tree/entry-presentation';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.copyEntry';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<string | undefined> {
  const store = requireStore(deps);
  if (!store) return undefined;
  const entry = requireEntry(deps, store, entryIdFrom(arg));
  if (!entry) return undefined;
  const look = presentEntry(entry);
  const text = look.text || look.kind;
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied to the clipboard'), 2000);
  return text;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
