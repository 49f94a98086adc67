// "Pin" (Session Tree context menu on messages of the current branch; from the palette, a picker of the
// messages it accepts): compactions keep a pinned message verbatim. Appends an `arbor.pin` entry
// (src/session/pins.ts); Unpin (unpin-entry.ts) appends another one, nothing is deleted.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { doneOrShown, stackOf } from '../refusals';
import { isPinnable, pinnedEntryIds } from '../../session/pins';
import { pickPathEntry } from './entry-picker';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.pinEntry';

export type PinCommandOutcome = 'pinned' | 'unpinned' | 'refused' | 'cancelled' | 'invalid';

/** Pins (`pinned`) or unpins the entry in `arg`, or one picked from the current branch. */
export async function runPin(deps: SurfaceDeps, arg: unknown, pinned: boolean): Promise<PinCommandOutcome> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const entryId = arg === undefined ? await pickPinTarget(deps, pinned) : entryIdFrom(arg);
  if (arg === undefined && entryId === undefined) return 'cancelled';
  const entry = requireEntry(deps, store, entryId);
  if (!entry) return 'invalid';
  try {
    const outcome = doneOrShown(await deps.app.tree.pin(entry.id, pinned), deps.log);
    if (!outcome) return 'refused';
    deps.log.info(`${outcome.value} ${entry.id}`);
    return outcome.value;
  } catch (error) {
    deps.log.error(`pin-entry: ${stackOf(error)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not save the pin: {0}', errorText(error)));
    return 'invalid';
  }
}

/** Messages of the current branch that can be pinned (or, to unpin, are pinned now). */
function pickPinTarget(deps: SurfaceDeps, pinned: boolean): Promise<string | undefined> {
  const store = deps.app.store!;
  const now = pinnedEntryIds(store.getBranch());
  const isPinned = (entryId: string) => now.has(entryId);
  return pickPathEntry(store, pinned ? vscode.l10n.t('Pin which message?') : vscode.l10n.t('Unpin which message?'), {
    include: (entry) => isPinnable(entry) && isPinned(entry.id) !== pinned,
    emptyMessage: pinned ? vscode.l10n.t('No message of the current branch can be pinned.') : vscode.l10n.t('No message of the current branch is pinned.'),
    placeHolder: pinned ? vscode.l10n.t('Compactions keep a pinned message verbatim.') : vscode.l10n.t('Compactions may summarize an unpinned message again.'),
  });
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => runPin(deps, arg, true));
}
