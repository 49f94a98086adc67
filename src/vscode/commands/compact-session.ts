// "Arbor: Compact Session": optional focus instructions (InputBox), a preview of what will be summarized
// and kept with estimated tokens before → after (Compact / Edit summary before saving / Cancel), then the
// compaction under a progress notification with Cancel. Cancelled or failed: the session is unchanged.
import * as vscode from 'vscode';
import type { CompactionPreview } from '../../compaction';
import { reviewInEditor } from '../summary-review';
import { formatTokens } from '../status-bar';
import { askFocus, compactWithProgress, refuseByPreview, reportNotDone } from './compaction-flow';
import { requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.compactSession';

export type CompactOutcome = 'compacted' | 'cancelled' | 'nothing' | 'failed' | 'invalid';

interface ActionItem extends vscode.QuickPickItem {
  action: 'compact' | 'edit' | 'cancel';
}

export function previewTitle(preview: CompactionPreview): string {
  return vscode.l10n.t(
    'Compact: ~{0} → ~{1} tokens',
    formatTokens(preview.tokensBefore),
    formatTokens(preview.estimatedTokensAfter),
  );
}

export function previewDetail(preview: CompactionPreview): string {
  const summarized = preview.summarizeCount + preview.turnPrefixCount;
  const parts = [
    vscode.l10n.t('Summarizes {0} older messages (~{1} tokens)', summarized, formatTokens(preview.summarizedTokens)),
    vscode.l10n.t('keeps the newest {0} as they are', preview.keptCount),
  ];
  if (preview.hasPreviousSummary) parts.push(vscode.l10n.t('updates the previous summary'));
  return parts.join('; ') + '. ' + vscode.l10n.t('Nothing is deleted from the session file.');
}

async function askAction(preview: CompactionPreview): Promise<ActionItem['action'] | undefined> {
  const detail = previewDetail(preview);
  const items: ActionItem[] = [
    { label: `$(fold) ${vscode.l10n.t('Compact')}`, detail, action: 'compact' },
    { label: `$(edit) ${vscode.l10n.t('Edit summary before saving')}`, detail: vscode.l10n.t('Review and edit the generated summary in an editor first.'), action: 'edit' },
    { label: `$(close) ${vscode.l10n.t('Cancel')}`, action: 'cancel' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: previewTitle(preview), placeHolder: detail, ignoreFocusOut: true });
  return picked?.action;
}

/** The focused chat's preview (its token estimates); undefined when there is nothing to compact. */
function previewFor(deps: SurfaceDeps): CompactionPreview | undefined {
  return deps.app.compaction.preview();
}

export async function run(deps: SurfaceDeps, instructionsArg?: unknown): Promise<CompactOutcome> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const preview = previewFor(deps);
  if (!preview || preview.summarizeCount + preview.turnPrefixCount === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to compact yet: the session is small enough, or was just compacted.'));
    return 'nothing';
  }
  if (refuseByPreview(preview)) return 'nothing';
  const asked = await askFocus(vscode.l10n.t('Compact Session'), instructionsArg);
  if (!asked) return 'cancelled';
  const focus = asked.focus;
  const action = await askAction(preview);
  if (action === undefined || action === 'cancel') return 'cancelled';

  try {
    await compactWithProgress(deps, vscode.l10n.t('Compacting the session…'), () =>
      deps.app.compaction.compact(focus, action === 'edit' ? { review: (result, _preparation, signal) => reviewInEditor(result, signal) } : {}),
    );
    deps.log.info(`manual compaction done${focus ? ` (focus: ${focus})` : ''}`);
    return 'compacted';
  } catch (error) {
    const kind = reportNotDone(deps, error, {
      logAs: 'manual compaction',
      skipAs: 'info',
      failed: (reason) => vscode.l10n.t('Compaction failed: {0}. The session is unchanged.', reason),
    });
    return kind === 'skipped' ? 'nothing' : kind;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (instructions?: unknown) => run(deps, instructions));
}
