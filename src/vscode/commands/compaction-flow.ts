// The steps Compact Session and Compact Up To Here share: asking for focus instructions, and running the
// compaction under a progress notification whose Cancel stops the summarizer (status bar busy meanwhile).
import * as vscode from 'vscode';
import { revealInTree } from './branch-switch';
import { CompactionNotDone, type SkipReason } from '../../compaction';
import { errorText, type SurfaceDeps } from './surface-deps';

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
 * Runs `compact` under a cancellable progress notification, then shows the new compaction entry (the
 * leaf) in the Session Tree. Errors, including a cancel, propagate: see `notDone`.
 */
export async function compactWithProgress(deps: SurfaceDeps, title: string, compact: () => Promise<unknown>): Promise<void> {
  const done = deps.status?.beginActivity('compacting');
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
      const subscription = token.onCancellationRequested(() => deps.app.cancelCompaction());
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
      return { kind: 'failed', message: outcome.errorMessage };
  }
}

/** Says the session is unchanged after the user's cancel. */
export function reportCancel(): void {
  void vscode.window.showInformationMessage(vscode.l10n.t('Compaction cancelled. The session is unchanged.'));
}
