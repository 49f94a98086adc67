// "Cancel" on the summary under review ("Edit summary before saving", see ../summary-review.ts): nothing
// is saved and the session stays as it was.
import * as vscode from 'vscode';
import { answerReview } from '../summary-review';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.summaryReview.cancel';

export function run(): boolean {
  return answerReview('cancel');
}

export function register(_deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run());
}
