// QuickPick of entries (Label Entry / Fork Session from the palette): the current path, newest first.
// Not a command itself.
import * as vscode from 'vscode';
import type { SessionEntry } from '../../session/entries';
import type { SessionStore } from '../../session/store';
import { presentEntry } from '../tree/entry-presentation';

/** the picker lists at most this many entries of the path (the newest), to stay fast on long sessions */
export const PICKER_LIMIT = 500;

export interface EntryPickItem extends vscode.QuickPickItem {
  entryId: string;
}

export function entryPickItem(store: SessionStore, entry: SessionEntry, extra?: string): EntryPickItem {
  const look = presentEntry(entry);
  const label = store.getLabel(entry.id);
  const parts = [look.kind];
  if (label) parts.push(`🏷 ${label}`);
  if (store.getLeafId() === entry.id) parts.push(vscode.l10n.t('● current'));
  if (extra) parts.push(extra);
  return { label: `$(${look.icon}) ${look.title}`, description: parts.join(' · '), entryId: entry.id };
}

export async function pickPathEntry(store: SessionStore, title: string): Promise<string | undefined> {
  const path = store.getBranch().filter((e) => e.type !== 'label' && e.type !== 'session_info');
  if (path.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The session has no entries yet.'));
    return undefined;
  }
  const items = path.slice(-PICKER_LIMIT).reverse().map((entry) => entryPickItem(store, entry));
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: vscode.l10n.t('Pick an entry of the current branch') });
  return picked?.entryId;
}
