// The files step of every native branch switch (issue #15): "Conversation and files" (first when the two
// nodes' file states differ) or "Conversation only", with the count and list of files that will change
// and "Show changes"; then, for files changed outside Arbor, a per-file choice (none is overwritten
// unless ticked), and for protected files (git hooks, editor settings, agent instructions: the shared
// write policy, src/agent/tools/write-policy.ts) a pick of their own with a warning, none ticked, asked
// whatever `arbor.checkpoints.restore` says. `arbor.checkpoints.restore` = always / never skips the first
// question; Restricted Mode and checkpoints turned off move the conversation only.
import * as vscode from 'vscode';
import type { SwitchFilesPreview } from '../../app/checkpoint-service';
import type { RestorePlan } from '../../checkpoints';
import type { RestoreMode } from '../../app/checkpoint-settings';
import { showSwitchDiff } from './switch-diff';
import { cannotRestoreHeading, filesWillChange, notRestorableLines, protectedWarning } from './files-text';

/** undefined: the user cancelled; `files` absent: conversation only. */
export type FilesDecision = { files?: { overwrite: ReadonlySet<string> } } | undefined;

interface FilesItem extends vscode.QuickPickItem {
  choice: 'files' | 'conversation' | 'show' | 'refused';
}

/** Whether a switch concerns any file (to change, or that cannot be restored: the user should know). */
export function hasFileWork(preview: SwitchFilesPreview | undefined): preview is SwitchFilesPreview {
  return preview !== undefined && preview.restorable && changeCount(preview.plan) + preview.plan.protectedChanges.length + preview.plan.notRestorable.length > 0;
}

function changeCount(plan: RestorePlan): number {
  return plan.changes.length + plan.outsideChanges.length;
}

/** `mode`: `arbor.checkpoints.restore` (undefined: checkpoints are not available here). */
export async function askFilesDecision(mode: RestoreMode | undefined, preview: SwitchFilesPreview | undefined): Promise<FilesDecision> {
  if (!mode || mode === 'never' || !hasFileWork(preview)) return {};
  const answer = mode === 'ask' ? await askRestore(preview) : 'files';
  if (answer !== 'files') return answer === 'conversation' ? {} : undefined;
  const overwrite = await askOverwrite(preview.plan);
  return overwrite ? { files: { overwrite } } : undefined;
}

/** "Conversation and files" or "Conversation only"; undefined: cancelled. "Show changes" asks again after. */
async function askRestore(preview: SwitchFilesPreview): Promise<'files' | 'conversation' | undefined> {
  const files: FilesItem = {
    label: `$(files) ${vscode.l10n.t('Conversation and files')}`,
    description: filesWillChange(changeCount(preview.plan)),
    detail: fileList(preview.plan),
    choice: 'files',
  };
  const conversation: FilesItem = { label: `$(comment-discussion) ${vscode.l10n.t('Conversation only')}`, detail: vscode.l10n.t('The files stay as they are.'), choice: 'conversation' };
  const show: FilesItem = { label: `$(diff) ${vscode.l10n.t('Show changes')}`, choice: 'show' };
  const refused = refusedItem(preview.plan);
  const items = [...(preview.differ ? [files, conversation, show] : [conversation, files, show]), ...(refused ? [refused] : [])];
  for (;;) {
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Switch branch: files'), placeHolder: vscode.l10n.t('Restore the files of that point too?'), ignoreFocusOut: true });
    if (picked?.choice === 'refused') await vscode.window.showWarningMessage(picked.label.replace(/^\$\([a-z-]+\) /, ''), { modal: true, detail: notRestorableLines(preview.plan.notRestorable).join('\n') });
    else if (picked?.choice === 'show') await showSwitchDiff(preview.plan);
    else return picked?.choice;
  }
}

/** The files a switch cannot restore, as an item that lists them (picking it shows every reason). */
function refusedItem(plan: RestorePlan): FilesItem | undefined {
  if (plan.notRestorable.length === 0) return undefined;
  const lines = notRestorableLines(plan.notRestorable);
  const detail = lines.slice(0, 3).join('; ');
  return {
    label: `$(warning) ${cannotRestoreHeading(plan.notRestorable.length)}`,
    detail: lines.length > 3 ? vscode.l10n.t('{0} and {1} more', detail, lines.length - 3) : detail,
    choice: 'refused',
  };
}

function fileList(plan: RestorePlan): string {
  const keys = [...plan.changes, ...plan.outsideChanges].map((c) => c.key);
  const shown = keys.slice(0, 5).join(', ');
  const list = keys.length > 5 ? vscode.l10n.t('{0} and {1} more', shown, keys.length - 5) : shown;
  const count = plan.protectedChanges.length;
  if (count === 0) return list;
  const asked = count === 1 ? vscode.l10n.t('1 protected file is asked about separately') : vscode.l10n.t('{0} protected files are asked about separately', count);
  return list ? `${list}; ${asked}` : asked;
}

/** The outside-changed and protected files to overwrite (ticked); undefined when the user cancelled. */
export async function askOverwrite(plan: RestorePlan): Promise<ReadonlySet<string> | undefined> {
  const outside = await askOutside(plan);
  const protectedKeys = outside && (await askProtected(plan));
  return outside && protectedKeys ? new Set([...outside, ...protectedKeys]) : undefined;
}

async function askOutside(plan: RestorePlan): Promise<readonly string[] | undefined> {
  if (plan.outsideChanges.length === 0) return [];
  const items = plan.outsideChanges.map((c) => ({ label: c.key, description: vscode.l10n.t('changed outside Arbor'), picked: false }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Files changed outside Arbor'),
    placeHolder: vscode.l10n.t('Tick the files to overwrite; the others keep their current content'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picked?.map((item) => item.label);
}

/** Protected files: a pick of their own, none ticked, with the warning; asked even when restores are set to "always". */
async function askProtected(plan: RestorePlan): Promise<readonly string[] | undefined> {
  if (plan.protectedChanges.length === 0) return [];
  const items = plan.protectedChanges.map((c) => ({ label: c.key, description: `$(warning) ${c.match.rule}`, picked: false }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Protected files: restore only those you trust'),
    placeHolder: protectedWarning(),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picked?.map((item) => item.label);
}
