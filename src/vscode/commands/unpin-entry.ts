// "Unpin" (Session Tree context menu on pinned messages; palette: a picker of the pinned ones): appends an
// `arbor.pin` entry with `pinned: false`; the earlier pin stays in the file (append-only).
import * as vscode from 'vscode';
import { runPin } from './pin-entry';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.unpinEntry';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => runPin(deps, arg, false));
}
