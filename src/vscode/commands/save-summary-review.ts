// "Save Summary": the title-bar action of the summary under review ("Edit summary before saving", see
// ../summary-review.ts): the edited text is what the compaction saves.
import * as vscode from 'vscode';
import { answerReview } from '../summary-review';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.summaryReview.save';

export function run(): boolean {
  return answerReview('save');
}

export function register(_deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run());
}
