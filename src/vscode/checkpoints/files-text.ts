// The words of the files choice, localized (issue #15): the reasons a file cannot be restored, and the
// webview dialog's labels, which the webview cannot translate itself (its strings come from here).
import * as vscode from 'vscode';
import type { NotRestorable, NotRestorableWhy, RestorePlan } from '../../checkpoints';
import type { FilesPreviewMessage } from '../../protocol';
import { formatBytes } from './store-size';

export function notRestorableReason(why: NotRestorableWhy): string {
  switch (why.kind) {
    case 'excluded':
      return vscode.l10n.t('excluded, or not inside the workspace');
    case 'not-checkpointed':
      return why.cause === 'too-large' ? vscode.l10n.t('not checkpointed ({0}, over the size cap)', formatBytes(why.size)) : vscode.l10n.t('not checkpointed (not a regular file)');
    case 'disk-not-checkpointed':
      return why.cause === 'too-large' ? vscode.l10n.t('the file on disk is over the size cap, so it is not replaced') : vscode.l10n.t('the file on disk is not a regular file, so it is not replaced');
    case 'content-missing':
      return vscode.l10n.t('its content is missing from the checkpoint store');
    case 'same-file':
      return vscode.l10n.t('the same file as another path (a symbolic link)');
  }
}

/** "key — reason" lines of the files a switch cannot restore. */
export function notRestorableLines(list: readonly NotRestorable[]): string[] {
  return list.map((n) => `${n.key} — ${notRestorableReason(n.why)}`);
}

export function filesWillChange(count: number): string {
  return count === 1 ? vscode.l10n.t('1 file will change') : vscode.l10n.t('{0} files will change', count);
}

export function cannotRestoreHeading(count: number): string {
  return count === 1 ? vscode.l10n.t('1 file cannot be restored') : vscode.l10n.t('{0} files cannot be restored', count);
}

/** The warning above the protected files of a restore (the dialog and the native pick say the same). */
export function protectedWarning(): string {
  return vscode.l10n.t('Protected files — git, VS Code or another agent act on these (hooks, tasks, settings, instructions). They come from the session file: tick one only if you trust it, otherwise it is kept:');
}

/** The webview dialog's labels for `plan`. */
export function dialogText(plan: RestorePlan): FilesPreviewMessage['text'] {
  return {
    legend: vscode.l10n.t('Files'),
    restore: vscode.l10n.t('Conversation and files'),
    keep: vscode.l10n.t('Conversation only'),
    show: vscode.l10n.t('Show changes'),
    summary: filesWillChange(plan.changes.length + plan.outsideChanges.length),
    more: vscode.l10n.t('and {0} more', '{0}'),
    outside: vscode.l10n.t('Changed outside Arbor — tick to overwrite, otherwise kept:'),
    protected: protectedWarning(),
    notRestorable: `${cannotRestoreHeading(plan.notRestorable.length)}:`,
    restricted: vscode.l10n.t('Files are not restored in Restricted Mode; only the conversation moves.'),
    added: vscode.l10n.t('added'),
    modified: vscode.l10n.t('modified'),
    deleted: vscode.l10n.t('deleted'),
  };
}
