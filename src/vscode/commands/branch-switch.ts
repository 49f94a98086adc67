// The native branch-switch dialog shared by Switch Here, Switch Here with Summary… and Switch Branch:
// No summary / Summarize / Summarize with my instructions (→ InputBox), then the navigation under a
// cancellable progress notification. A cancelled or failed summary leaves the user where they were, and
// says so. Not a command itself.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { showRefusal, stackOf } from '../refusals';
import { shownId } from '../../app/display-tree';
import type { FilesRestoreResult } from '../../app/checkpoint-service';
import { askFilesDecision } from '../checkpoints/files-choice';
import { closeSwitchDiffs } from '../checkpoints/switch-diff';
import { requireEntry, requireStore, withCancellableProgress, type SurfaceDeps } from './surface-deps';

export type SummaryChoice = { summarize: false } | { summarize: true; customInstructions?: string };

interface ChoiceItem extends vscode.QuickPickItem {
  choice: 'none' | 'summarize' | 'instructions';
}

/** Asks how to treat the branch being left. Undefined: the user cancelled (Esc). */
export async function askSummaryChoice(): Promise<SummaryChoice | undefined> {
  const items: ChoiceItem[] = [
    { label: `$(arrow-right) ${vscode.l10n.t('No summary')}`, detail: vscode.l10n.t('Switch now; the branch you leave stays in the tree.'), choice: 'none' },
    { label: `$(git-merge) ${vscode.l10n.t('Summarize')}`, detail: vscode.l10n.t('Summarize the branch you leave into the new position.'), choice: 'summarize' },
    {
      label: `$(edit) ${vscode.l10n.t('Summarize with my instructions')}`,
      detail: vscode.l10n.t('Tell the summarizer what to focus on.'),
      choice: 'instructions',
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch branch'),
    placeHolder: vscode.l10n.t('Summarize the branch you are leaving?'),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.choice === 'none') return { summarize: false };
  if (picked.choice === 'summarize') return { summarize: true };
  const instructions = await vscode.window.showInputBox({
    title: vscode.l10n.t('Summarize with my instructions'),
    prompt: vscode.l10n.t('What should the summary focus on?'),
    placeHolder: vscode.l10n.t('e.g. the approaches that failed and why'),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Type some instructions, or press Esc to cancel.') : undefined),
  });
  if (instructions === undefined) return undefined;
  const trimmed = instructions.trim();
  // Empty instructions (only possible when validation is bypassed) mean a plain summary.
  return trimmed === '' ? { summarize: true } : { summarize: true, customInstructions: trimmed };
}

export interface SwitchOutcome {
  status: 'switched' | 'cancelled' | 'refused' | 'failed' | 'no-op' | 'invalid';
  message?: string;
}

/**
 * Switches to `entryId`. `ask`: 'always' shows the summary dialog, 'setting' shows it when
 * `arbor.branchSummary.enabled` is true, 'never' switches without a summary.
 */
export async function switchTo(deps: SurfaceDeps, entryId: string | undefined, ask: 'always' | 'setting' | 'never'): Promise<SwitchOutcome> {
  const store = requireStore(deps);
  if (!store) return { status: 'invalid' };
  const entry = requireEntry(deps, store, entryId);
  if (!entry) return { status: 'invalid' };
  if (store.getLeafId() === entry.id) {
    void vscode.window.showInformationMessage(vscode.l10n.t('You are already at this point of the conversation.'));
    return { status: 'no-op' };
  }
  const offerDialog = ask === 'always' || (ask === 'setting' && deps.settings().branchSummary.enabled);
  const choice: SummaryChoice | undefined = offerDialog ? await askSummaryChoice() : { summarize: false };
  if (!choice) return { status: 'cancelled', message: 'dialog dismissed' };
  const files = await askFilesDecision(deps.app.checkpoints.settings.restore, await deps.app.tree.previewSwitchFiles(entry.id));
  await closeSwitchDiffs(); // the files question is answered: its "Show changes" diff has done its job
  if (!files) return { status: 'cancelled', message: 'files dialog dismissed' };

  const navigate = (signal?: AbortSignal) =>
    deps.app.tree.navigate(entry.id, {
      summarize: choice.summarize,
      ...(choice.summarize && choice.customInstructions ? { customInstructions: choice.customInstructions } : {}),
      ...(signal ? { signal } : {}),
      ...(files.files ? { files: files.files } : {}),
    });
  try {
    const outcome = choice.summarize
      ? await trackSummarizing(deps, withCancellableProgress(vscode.l10n.t('Summarizing the branch you are leaving…'), navigate))
      : await navigate();
    if (outcome.kind === 'refused') {
      showRefusal(outcome, deps.log);
      return { status: 'refused', message: outcome.message };
    }
    const result = outcome.value;
    if (result.cancelled) {
      const message = vscode.l10n.t('{0}. You are still where you were.', (result.message ?? 'Branch switch cancelled').replace(/\.$/, ''));
      void vscode.window.showInformationMessage(message);
      return { status: 'cancelled', message };
    }
    reportFiles(result.files);
    if (result.editorText !== undefined) await deps.app.setChatInput?.(result.editorText, result.editorImages);
    if (result.newLeafId) await revealInTree(deps, result.newLeafId);
    deps.log.info(`switched to ${entry.id} (leaf ${result.newLeafId ?? 'before the first entry'})${choice.summarize ? ' with a summary' : ''}`);
    return { status: 'switched' };
  } catch (error) {
    const message = vscode.l10n.t('Could not switch branch: {0}. You are still where you were.', errorText(error).replace(/\.$/, ''));
    deps.log.error(`${message}\n${stackOf(error)}`);
    void vscode.window.showErrorMessage(message);
    return { status: 'failed', message };
  }
}

/** Says what a file restore did (kept files changed outside Arbor are named). */
export function reportFiles(files: FilesRestoreResult | undefined): void {
  if (files?.kind !== 'restored') return;
  const changed = files.written.length + files.deleted.length;
  const kept = files.kept.length > 0 ? ` ${vscode.l10n.t('Kept (changed outside Arbor): {0}.', files.kept.join(', '))}` : '';
  void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0} file(s).', changed) + kept);
}

/** Shows the status bar spinner while a summary is generated. */
export async function trackSummarizing<T>(deps: SurfaceDeps, work: Thenable<T>): Promise<T> {
  const done = deps.status.beginActivity('summarizing');
  try {
    return await work;
  } finally {
    done?.();
  }
}

export async function revealInTree(deps: SurfaceDeps, entryId: string): Promise<void> {
  if (!deps.treeView.visible) return;
  // a leaf on a file manifest shows on the reply above it (src/app/display-tree.ts)
  const row = (deps.app.store && shownId(deps.app.store, entryId)) ?? entryId;
  try {
    await deps.treeView.reveal(row, { select: true, focus: false });
  } catch (error) {
    deps.log.debug(`could not reveal ${entryId} in the Session Tree: ${errorText(error)}`);
  }
}
