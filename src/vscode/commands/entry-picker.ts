// QuickPick of entries (Label Entry / Fork Session / Compact Up To Here from the palette): the current
// path, newest first, optionally limited to the entries a command accepts.
// Not a command itself.
import * as vscode from 'vscode';
import type { SessionEntry } from '../../session/entries';
import type { SessionReader } from '../surfaces-types';
import { presentEntry } from '../tree/entry-presentation';

/** the picker lists at most this many entries of the path (the newest), to stay fast on long sessions */
export const PICKER_LIMIT = 500;

export interface EntryPickItem extends vscode.QuickPickItem {
  entryId: string;
}

export function entryPickItem(store: SessionReader, entry: SessionEntry, extra?: string): EntryPickItem {
  const look = presentEntry(entry);
  const label = store.getLabel(entry.id);
  // a labelled entry is named by its label, its text follows once (never the label twice)
  const parts = label ? [look.title] : [look.kind];
  if (store.getLeafId() === entry.id) parts.push(vscode.l10n.t('● current'));
  if (extra) parts.push(extra);
  return { label: label ? `$(tag) ${label}` : `$(${look.icon}) ${look.title}`, description: parts.join(' · '), entryId: entry.id };
}

export interface PathPickOptions {
  /** only entries for which this is true are offered (default: every entry but labels and names) */
  include?: (entry: SessionEntry) => boolean;
  /** shown instead of the default when no entry qualifies */
  emptyMessage?: string;
  placeHolder?: string;
}

export async function pickPathEntry(store: SessionReader, title: string, options: PathPickOptions = {}): Promise<string | undefined> {
  const include = options.include ?? ((e: SessionEntry) => e.type !== 'label' && e.type !== 'session_info');
  const path = store.getBranch().filter(include);
  if (path.length === 0) {
    void vscode.window.showInformationMessage(options.emptyMessage ?? vscode.l10n.t('The session has no entries yet.'));
    return undefined;
  }
  const items = path.slice(-PICKER_LIMIT).reverse().map((entry) => entryPickItem(store, entry));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    matchOnDescription: true,
    placeHolder: options.placeHolder ?? vscode.l10n.t('Pick an entry of the current branch'),
  });
  return picked?.entryId;
}
