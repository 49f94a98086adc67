// The chat panel's side of the files choice (issue #15): answers the webview dialog's `previewFiles`,
// opens "Show changes", and turns the dialog's choice into navigate options. A navigate without a files
// choice (the dialog was not shown, Continue from before a compaction) asks natively, like the Session
// Tree does (files-choice.ts).
import type { ArborApp } from '../../app';
import type { FileState, RestorePlan } from '../../checkpoints';
import type { FilesPreviewMessage, NavigateFiles } from '../../protocol';
import { askFilesDecision, type FilesDecision } from './files-choice';
import { showSwitchDiff } from './switch-diff';
import { dialogText, notRestorableReason } from './files-text';

function changeOf(current: FileState, target: FileState): 'added' | 'modified' | 'deleted' {
  if (current.kind === 'absent') return 'added';
  return target.kind === 'absent' ? 'deleted' : 'modified';
}

/** The `filesPreview` answer for the dialog (`wireTargetId`: the id as the webview knows it). */
export async function filesPreviewFor(app: ArborApp, targetId: string, wireTargetId: string): Promise<FilesPreviewMessage> {
  const preview = await app.tree.previewSwitchFiles(targetId);
  const plan: RestorePlan = preview?.plan ?? { fromId: null, toId: null, changes: [], outsideChanges: [], protectedChanges: [], notRestorable: [] };
  return {
    type: 'filesPreview',
    targetId: wireTargetId,
    restorable: preview?.restorable ?? false,
    differ: preview?.differ ?? false,
    mode: app.checkpoints.settings.restore,
    changes: plan.changes.map((c) => ({ key: c.key, change: changeOf(c.current, c.target) })),
    outside: plan.outsideChanges.map((c) => c.key),
    protected: plan.protectedChanges.map((c) => ({ key: c.key, rule: c.match.rule.slice(0, 1000) })),
    notRestorable: plan.notRestorable.map((n) => ({ key: n.key, reason: notRestorableReason(n.why).slice(0, 1000) })),
    text: dialogText(plan),
  };
}

/** The files part of a chat navigation: the dialog's choice, or a native question when there was none. */
export async function filesDecisionFor(app: ArborApp, targetId: string, files: NavigateFiles | undefined): Promise<FilesDecision> {
  if (files) return files.restore ? { files: { overwrite: new Set(files.overwrite) } } : {};
  return askFilesDecision(app.checkpoints.settings.restore, await app.tree.previewSwitchFiles(targetId));
}

/** "Show changes" from the dialog: the files the switch would change, as one diff. */
export async function showSwitchChanges(app: ArborApp, targetId: string): Promise<void> {
  const preview = await app.tree.previewSwitchFiles(targetId);
  if (preview) await showSwitchDiff(preview.plan);
}
