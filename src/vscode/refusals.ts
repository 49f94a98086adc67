// How the VS Code side shows an app action's refusal (src/app/app-outcome.ts): a warning with the reason,
// in the chat as a notice and from a command as a message, and a log line without a stack. An exception
// is not a refusal: it reaches the chat controller's or the command's catch and is shown and logged as
// an error (docs/architecture.md, "Refusals and errors").
import * as vscode from 'vscode';
import type { AppOutcome, AppRefusal } from '../app/app-outcome';
import type { HostToWebviewMessage } from '../protocol';
import type { Logger } from './log';

/** The chat's notice for a refusal. */
export function refusalNotice(refusal: Pick<AppRefusal, 'message'>): HostToWebviewMessage {
  return { type: 'notice', level: 'warning', message: refusal.message };
}

/** A command's message for a refusal (logged as information: nothing went wrong). */
export function showRefusal(refusal: Pick<AppRefusal, 'reason' | 'message'>, log?: Logger): void {
  log?.info(`refused (${refusal.reason}): ${refusal.message}`);
  void vscode.window.showWarningMessage(refusal.message);
}

/** The value of a done outcome; a refusal is shown (as a command's warning) and gives undefined. */
export function doneOrShown<T>(outcome: AppOutcome<T>, log?: Logger): { value: T } | undefined {
  if (outcome.kind === 'done') return { value: outcome.value };
  showRefusal(outcome, log);
  return undefined;
}

/** An exception's stack for the log (a bug is logged with where it happened). */
export function stackOf(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}
