// "Compare Files With…" (Session Tree): pick another node (a branch tip or branch point) and see, in one
// multi-file diff, how the files differ between the two (two branches that tried different fixes).
import * as vscode from 'vscode';
import { showFileChanges, type DiffRow } from '../checkpoints/file-diff';
import { branchTargets } from './switch-branch';
import { entryPickItem } from './entry-picker';
import { pointName } from '../tree/entry-presentation';
import type { SessionEntry } from '../../session/entries';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.compareFilesWith';

export async function run(deps: SurfaceDeps, arg?: unknown, otherId?: string): Promise<DiffRow[] | undefined> {
  const store = requireStore(deps);
  const entry = store ? requireEntry(deps, store, entryIdFrom(arg)) : undefined;
  if (!store || !entry) return undefined;
  const other = otherId ?? (await pickOther(deps, entry.id));
  if (!other) return undefined;
  const rows: DiffRow[] = deps.app.tree.fileChanges(other, entry.id).map((c) => ({ key: c.key, left: { kind: 'state', state: c.from }, right: { kind: 'state', state: c.to } }));
  const otherEntry = store.getEntry(other);
  const name = (e: SessionEntry) => pointName(e, store.getLabel(e.id));
  await showFileChanges(vscode.l10n.t('Files: {0} ↔ {1}', otherEntry ? name(otherEntry) : other, name(entry)), rows);
  return rows;
}

async function pickOther(deps: SurfaceDeps, entryId: string): Promise<string | undefined> {
  const store = deps.app.store!;
  const items = branchTargets(store)
    .filter((t) => t.entry.id !== entryId)
    .map(({ entry }) => entryPickItem(store, entry));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Compare Files With…'), placeHolder: vscode.l10n.t('Pick the point to compare the files with'), matchOnDescription: true });
  return picked?.entryId;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown, otherId?: unknown) => run(deps, arg, typeof otherId === 'string' ? otherId : undefined));
}
