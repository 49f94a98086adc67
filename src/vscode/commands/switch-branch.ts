// "Arbor: Switch Branch…": a QuickPick of the session's tips (leaves) and branch points, each with a
// preview of its text and the user message it answers, then the summary choice (when enabled).
import * as vscode from 'vscode';
import type { SessionEntry } from '../../session/entries';
import type { SessionReader } from '../surfaces-types';
import { firstLine, presentEntry } from '../tree/entry-presentation';
import { switchTo, type SwitchOutcome } from './branch-switch';
import { entryPickItem, type EntryPickItem } from './entry-picker';
import { requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.switchBranch';

/** Tips and branch points, newest first; the current leaf is listed but marked. */
export function branchTargets(store: SessionReader): { entry: SessionEntry; kind: 'tip' | 'branch point'; children: number }[] {
  const targets: { entry: SessionEntry; kind: 'tip' | 'branch point'; children: number }[] = [];
  for (const entry of store.getEntries()) {
    if (entry.type === 'label' || entry.type === 'session_info') continue;
    const children = store.getChildren(entry.id).filter((c) => c.type !== 'label' && c.type !== 'session_info').length;
    if (children === 0) targets.push({ entry, kind: 'tip', children });
    else if (store.getChildren(entry.id).length >= 2) targets.push({ entry, kind: 'branch point', children });
  }
  return targets.reverse();
}

/** The nearest user message at or above `entry` (what this branch was about). */
function askedBy(store: SessionReader, entry: SessionEntry): string | undefined {
  let current: SessionEntry | undefined = entry;
  for (let steps = 0; current && steps < 200; steps++) {
    if (current.type === 'message' && current.message.role === 'user') return firstLine(presentEntry(current).text, 80);
    current = current.parentId ? store.getEntry(current.parentId) : undefined;
  }
  return undefined;
}

export async function run(deps: SurfaceDeps): Promise<SwitchOutcome> {
  const store = requireStore(deps);
  if (!store) return { status: 'invalid' };
  const targets = branchTargets(store);
  if (targets.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The session has no entries yet.'));
    return { status: 'invalid' };
  }
  const items: EntryPickItem[] = targets.map(({ entry, kind, children }) => {
    const item = entryPickItem(store, entry, kind === 'tip' ? vscode.l10n.t('tip') : vscode.l10n.t('branch point · {0} branches', children));
    const question = askedBy(store, entry);
    if (question && !(entry.type === 'message' && entry.message.role === 'user')) item.detail = `$(account) ${question}`;
    return item;
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch Branch'),
    placeHolder: vscode.l10n.t('Pick a branch tip or branch point to continue from'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return { status: 'cancelled', message: 'picker dismissed' };
  return switchTo(deps, picked.entryId, 'setting');
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run(deps));
}
