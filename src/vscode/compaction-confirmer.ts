// The VS Code side of `arbor.compaction.warnBeforeAuto`: before an automatic (threshold or idle)
// compaction, a non-modal warning offers "Compact now", "Later" and "Don't ask again". Closing the
// notification counts as "Later"; "Don't ask again" turns the setting off where it is set and compacts.
import * as vscode from 'vscode';
import type { AutoCompactionAnswer, AutoCompactionQuestion, CompactionConfirmer } from '../agent/auto-compaction-confirm';
import { saveWarnBeforeAutoOff } from './settings/arbor-settings';

type ShowWarning = (message: string, ...items: string[]) => Thenable<string | undefined>;

export interface CompactionConfirmerDeps {
  /** default: `vscode.window.showWarningMessage`, looked up at every question */
  show?: ShowWarning;
  log?: (message: string) => void;
}

export function confirmerButtons(): { compactNow: string; later: string; never: string } {
  return {
    compactNow: vscode.l10n.t('Compact now'),
    later: vscode.l10n.t('Later'),
    never: vscode.l10n.t("Don't ask again"),
  };
}

export function confirmerMessage(question: AutoCompactionQuestion): string {
  const tokens = question.contextTokens.toLocaleString();
  const threshold = question.threshold.toLocaleString();
  const window = question.window.toLocaleString();
  return question.reason === 'idle'
    ? vscode.l10n.t(
        'Arbor: the conversation holds {0} tokens while idle (idle compaction starts at {1}). Compact it now? Older turns are summarized; the full history stays in the session file.',
        tokens,
        threshold,
      )
    : vscode.l10n.t(
        'Arbor: the conversation uses {0} of {1} context tokens (automatic compaction starts at {2}). Compact it now? Older turns are summarized; the full history stays in the session file.',
        tokens,
        window,
        threshold,
      );
}

export class NotificationCompactionConfirmer implements CompactionConfirmer {
  constructor(private readonly deps: CompactionConfirmerDeps = {}) {}

  async confirm(question: AutoCompactionQuestion, signal: AbortSignal): Promise<AutoCompactionAnswer> {
    if (signal.aborted) return 'defer';
    const buttons = confirmerButtons();
    const show: ShowWarning = this.deps.show ?? ((message, ...items) => vscode.window.showWarningMessage(message, ...items));
    // A notification cannot be closed from code: when the question becomes moot (the user stopped the
    // agent or started a turn) it simply stops mattering, and a late click is ignored.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<undefined>((resolve) => {
      onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    let choice: string | undefined;
    try {
      choice = await Promise.race([Promise.resolve(show(confirmerMessage(question), buttons.compactNow, buttons.later, buttons.never)), aborted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) return 'defer';
    if (choice === buttons.compactNow) return 'compact';
    if (choice === buttons.never) {
      await this.stopAsking();
      return 'compact';
    }
    return 'defer';
  }

  /** Turns warnBeforeAuto off where it was turned on: the workspace settings, or else the user settings. */
  private async stopAsking(): Promise<void> {
    try {
      await saveWarnBeforeAutoOff();
    } catch (error) {
      this.deps.log?.(`could not turn off arbor.compaction.warnBeforeAuto: ${(error as Error).message}`);
    }
  }
}
