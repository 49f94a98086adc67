// The steps Compact Session, Compact Up To Here and Hand Off share: asking for focus instructions, running the
// compaction under a progress notification whose Cancel stops the summarizer, and telling why none happened.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { revealInTree } from './branch-switch';
import { CompactionNotDone, wouldNotShrink, type CompactionPreview, type SkipReason } from '../../compaction';
import { type SurfaceDeps } from './surface-deps';

/**
 * The focus instructions: `given` when a caller passed a string, else asked for. `undefined` when the
 * user dismissed the box; `{ focus: undefined }` for a general summary.
 */
export async function askFocus(title: string, given: unknown): Promise<{ focus: string | undefined } | undefined> {
  let instructions = typeof given === 'string' ? given : undefined;
  if (instructions === undefined) {
    instructions = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('Optional: what should the summary focus on? Leave empty for a general summary.'),
      placeHolder: vscode.l10n.t('e.g. keep the API decisions and the open TODOs'),
      ignoreFocusOut: true,
    });
    if (instructions === undefined) return undefined;
  }
  return { focus: instructions.trim() || undefined };
}

/**
 * The refusal a preview already shows (the compaction would not shrink the context: ../../compaction/context-figures.ts),
 * told once as information; true when refused. The run would refuse the same way, before any model call.
 */
export function refuseByPreview(preview: CompactionPreview): boolean {
  if (preview.shrinks !== false) return false;
  const refusal = wouldNotShrink({ tokensBefore: preview.estimatedTokensBefore, tokensAfter: preview.estimatedTokensAfter });
  void vscode.window.showInformationMessage(refusal.message);
  return true;
}

/**
 * Runs `compact` under a cancellable progress notification, then shows the new compaction entry (the
 * leaf) in the Session Tree. Errors, including a cancel, propagate: see `notDone`.
 */
export async function compactWithProgress(deps: SurfaceDeps, title: string, compact: () => Promise<unknown>): Promise<void> {
  const done = deps.status.beginActivity('compacting');
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
      const subscription = token.onCancellationRequested(() => deps.app.compaction.cancel());
      try {
        await compact();
      } finally {
        subscription.dispose();
      }
    });
  } finally {
    done?.();
  }
  const leaf = deps.app.store?.getLeafId();
  if (leaf) await revealInTree(deps, leaf);
}

/**
 * What a compaction that threw means for the user, from its typed outcome (CompactionNotDone): the user's
 * cancel, a skip (nothing to compact, a refused cut, busy) or a failure. Anything else is a failure.
 */
export type NotDone = { kind: 'cancelled' } | { kind: 'skipped'; why: SkipReason; message: string } | { kind: 'failed'; message: string };

export function notDone(error: unknown): NotDone {
  if (!(error instanceof CompactionNotDone)) return { kind: 'failed', message: errorText(error) };
  const outcome = error.outcome;
  switch (outcome.status) {
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'skipped':
      return { kind: 'skipped', why: outcome.why, message: outcome.message };
    case 'failed':
      return { kind: 'failed', message: outcome.detail ?? outcome.errorMessage };
  }
}

/** Says the session is unchanged after the user's cancel. */
export function reportCancel(): void {
  void vscode.window.showInformationMessage(vscode.l10n.t('Compaction cancelled. The session is unchanged.'));
}

/** How a command's compaction that did not happen is told to the user (once) and logged. */
export interface NotDoneWording {
  /** the log line's subject, e.g. "manual compaction" */
  logAs: string;
  /** a skip is information (nothing to do) or a warning (the user's choice was refused) */
  skipAs: 'info' | 'warning';
  /** the failure message, with the reason (a literal per command, for localization) */
  failed: (reason: string) => string;
}

/** Tells the user why the compaction did not happen; returns which of the three it was. */
export function reportNotDone(deps: SurfaceDeps, error: unknown, wording: NotDoneWording): NotDone['kind'] {
  const why = notDone(error);
  if (why.kind === 'cancelled') reportCancel();
  else if (why.kind === 'skipped') {
    void (wording.skipAs === 'info' ? vscode.window.showInformationMessage(why.message) : vscode.window.showWarningMessage(why.message));
  } else {
    deps.log.error(`${wording.logAs} failed: ${why.message}`);
    void vscode.window.showErrorMessage(wording.failed(why.message.replace(/\.$/, '')));
  }
  return why.kind;
}
