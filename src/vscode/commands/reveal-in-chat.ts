// "Reveal in Chat": selecting a Session Tree node scrolls the chat to that message (best effort).
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.revealInChat';

export async function run(deps: SurfaceDeps, arg?: unknown): Promise<boolean> {
  const store = requireStore(deps);
  if (!store) return false;
  const entry = requireEntry(deps, store, entryIdFrom(arg));
  if (!entry) return false;
  try {
    await deps.app.revealInChat(entry.id);
    return true;
  } catch (error) {
    deps.log.warn(`reveal in chat failed for ${entry.id}: ${errorText(error)}`);
    return false;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
