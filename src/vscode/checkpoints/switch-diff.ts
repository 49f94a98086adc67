// "Show changes" of a branch switch (issue #15): the multi-file diff of what the switch would do to the
// files. It belongs to one dialog, so it is closed when the switch is made or dropped, and any older one is
// closed before a new one opens: a diff left open from the last switch showed the opposite direction of
// what the next dialog said (issue #28).
import * as vscode from 'vscode';
import type { RestorePlan } from '../../checkpoints';
import { showFileChanges, type DiffRow } from './file-diff';

function switchDiffTitle(): string {
  return vscode.l10n.t('Files this switch changes');
}

/** The rows of a plan's "Show changes": the file as it is now (left) against the state it would get (right). */
export function planRows(plan: RestorePlan): DiffRow[] {
  return [...plan.changes, ...plan.outsideChanges, ...plan.protectedChanges].map((c) => ({ key: c.key, left: { kind: 'state', state: c.current }, right: { kind: 'state', state: c.target } }));
}

/** Opens this switch's diff, in place of any left from an earlier one. */
export async function showSwitchDiff(plan: RestorePlan): Promise<void> {
  await closeSwitchDiffs();
  await showFileChanges(switchDiffTitle(), planRows(plan));
}

/** Whether a tab is a switch diff: the multi-diff editor's label is the title, maybe with its file count. */
function isSwitchDiff(tab: vscode.Tab, title: string): boolean {
  if (tab.input instanceof vscode.TabInputText) return false;
  return tab.label === title || tab.label.startsWith(`${title} (`);
}

/** Closes every switch diff. */
export async function closeSwitchDiffs(): Promise<void> {
  const title = switchDiffTitle();
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => isSwitchDiff(tab, title));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs).then(undefined, () => false);
}
