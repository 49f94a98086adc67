// "Edit summary before saving" (issue 25), without a modal dialog: the generated summary opens in an
// editor tab the user types into; "Save Summary" and "Cancel" are actions in that tab's title bar (context
// key `arbor.summaryReviewActive`, true while the tab is the active editor) and in a non-modal
// notification. Closing the tab, or cancelling the compaction, cancels. Either way the tab is reverted and
// closed, so no "Untitled-1" is left dirty behind.
import * as vscode from 'vscode';
import type { CompactionResult } from '../compaction';

export const REVIEW_CONTEXT_KEY = 'arbor.summaryReviewActive';

type Answer = 'save' | 'cancel';

interface PendingReview {
  document: vscode.TextDocument;
  answer: (answer: Answer) => void;
}

let pending: PendingReview | undefined;

function setActive(active: boolean): void {
  void vscode.commands.executeCommand('setContext', REVIEW_CONTEXT_KEY, active);
}

/** Answers the open review (the title-bar actions call this); false when none is open. */
export function answerReview(answer: Answer): boolean {
  if (!pending) return false;
  pending.answer(answer);
  return true;
}

/** The document under review, if any (tests read it). */
export function reviewedDocument(): vscode.TextDocument | undefined {
  return pending?.document;
}

/** Waits for Save, Cancel, the tab closing or the compaction being cancelled. */
function waitForAnswer(document: vscode.TextDocument, signal: AbortSignal | undefined): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    const finish = (answer: Answer) => {
      for (const subscription of subscriptions.splice(0)) subscription.dispose();
      signal?.removeEventListener('abort', onAbort);
      if (pending?.document === document) pending = undefined;
      setActive(false);
      resolve(answer);
    };
    const onAbort = () => finish('cancel');
    pending = { document, answer: finish };
    subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => setActive(editor?.document === document)),
      vscode.workspace.onDidCloseTextDocument((closed) => closed === document && finish('cancel')),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
}

/** A notification with the same two answers, for users who look there first; it never blocks the editor. */
function offerInNotification(document: vscode.TextDocument): void {
  const save = vscode.l10n.t('Save Summary');
  const cancel = vscode.l10n.t('Cancel');
  void vscode.window
    .showInformationMessage(vscode.l10n.t('Edit the summary in its tab, then choose Save Summary (its title bar or here). Cancel keeps the session unchanged.'), save, cancel)
    .then((picked) => {
      if (pending?.document !== document) return;
      if (picked === save) answerReview('save');
      else if (picked === cancel) answerReview('cancel');
    });
}

/** Reverts and closes the review tab, wherever it is, without a "save changes?" question. */
async function closeReviewTab(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

/** Opens the generated summary for editing; resolves with the (edited) result, or undefined to cancel. */
export async function reviewInEditor(result: CompactionResult, signal?: AbortSignal): Promise<CompactionResult | undefined> {
  answerReview('cancel');
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: result.summary });
  await vscode.window.showTextDocument(document, { preview: false });
  setActive(vscode.window.activeTextEditor?.document === document);
  const answered = waitForAnswer(document, signal);
  offerInNotification(document);
  const answer = await answered;
  const text = document.isClosed ? '' : document.getText().trim();
  await closeReviewTab(document);
  if (answer !== 'save') return undefined;
  if (text === '') {
    void vscode.window.showWarningMessage(vscode.l10n.t('The summary is empty; compaction cancelled.'));
    return undefined;
  }
  return { ...result, summary: text };
}
