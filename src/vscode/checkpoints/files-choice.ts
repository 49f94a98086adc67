// The files step of every native branch switch (issue #15): "Conversation and files" (first when the two
// nodes' file states differ) or "Conversation only", with the count and list of files that will change
// and "Show changes"; then, for files changed outside Arbor, a per-file choice (none is overwritten
// unless ticked). `arbor.checkpoints.restore` = always / never skips the first question; Restricted
// Mode and checkpoints turned off move the conversation only.
import * as vscode from 'vscode';
import type { SwitchFilesPreview } from '../../app/checkpoint-service';
import type { RestorePlan } from '../../checkpoints';
import type { RestoreMode } from '../../app/checkpoint-settings';
import { showFileChanges, type DiffRow } from './file-diff';

/** undefined: the user cancelled; `files` absent: conversation only. */
export type FilesDecision = { files?: { overwrite: ReadonlySet<string> } } | undefined;

interface FilesItem extends vscode.QuickPickItem {
  choice: 'files' | 'conversation' | 'show';
}

/** Whether a switch has anything to do with files. */
export function hasFileWork(preview: SwitchFilesPreview | undefined): preview is SwitchFilesPreview {
  return preview !== undefined && preview.restorable && preview.plan.changes.length + preview.plan.outsideChanges.length > 0;
}

/** The rows of a plan's "Show changes": the file on disk now against the state it would get. */
export function planRows(plan: RestorePlan): DiffRow[] {
  return [...plan.changes, ...plan.outsideChanges].map((c) => ({ key: c.key, left: { kind: 'state', state: c.current }, right: { kind: 'state', state: c.target } }));
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
  const count = preview.plan.changes.length + preview.plan.outsideChanges.length;
  const files: FilesItem = {
    label: `$(files) ${vscode.l10n.t('Conversation and files')}`,
    description: count === 1 ? vscode.l10n.t('1 file will change') : vscode.l10n.t('{0} files will change', count),
    detail: fileList(preview.plan),
    choice: 'files',
  };
  const conversation: FilesItem = { label: `$(comment-discussion) ${vscode.l10n.t('Conversation only')}`, detail: vscode.l10n.t('The files stay as they are.'), choice: 'conversation' };
  const show: FilesItem = { label: `$(diff) ${vscode.l10n.t('Show changes')}`, choice: 'show' };
  const items = preview.differ ? [files, conversation, show] : [conversation, files, show];
  for (;;) {
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Switch branch: files'), placeHolder: vscode.l10n.t('Restore the files of that point too?'), ignoreFocusOut: true });
    if (picked?.choice !== 'show') return picked?.choice;
    await showFileChanges(vscode.l10n.t('Files this switch changes'), planRows(preview.plan));
  }
}

function fileList(plan: RestorePlan): string {
  const keys = [...plan.changes, ...plan.outsideChanges].map((c) => c.key);
  const shown = keys.slice(0, 5).join(', ');
  return keys.length > 5 ? vscode.l10n.t('{0} and {1} more', shown, keys.length - 5) : shown;
}

/** The outside-changed files to overwrite (ticked); undefined when the user cancelled. */
export async function askOverwrite(plan: RestorePlan): Promise<ReadonlySet<string> | undefined> {
  if (plan.outsideChanges.length === 0) return new Set();
  const items = plan.outsideChanges.map((c) => ({ label: c.key, description: vscode.l10n.t('changed outside Arbor'), picked: false }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Files changed outside Arbor'),
    placeHolder: vscode.l10n.t('Tick the files to overwrite; the others keep their current content'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picked ? new Set(picked.map((item) => item.label)) : undefined;
}
