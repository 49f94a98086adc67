// "Arbor: Run This Plan": leaves Plan mode in the focused chat for the mode the user picks (Ask or
// Auto-edit, or the one given as argument) and asks the agent to carry out the plan it wrote. What the app
// answers is told as the chat tells it: a refusal (no plan to run, the agent busy) as a warning with its
// reason (refusals.ts), a failed request as an error with its message.
import * as vscode from 'vscode';
import type { ApprovalMode } from '../../core/approval-modes';
import type { PromptOutcome } from '../../app/app-types';
import { approvalModeItems } from '../approval-mode-words';
import { showRefusal } from '../refusals';
import type { Logger } from '../log';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.runPlan';

type RunMode = Exclude<ApprovalMode, 'plan'>;

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (mode?: unknown) => run(deps, mode));
}

/** The mode the plan runs in, or undefined when the user picked none or the app did not run it (told). */
export async function run(deps: Pick<SurfaceDeps, 'app' | 'log'>, mode?: unknown): Promise<RunMode | undefined> {
  const chosen = mode === 'ask' || mode === 'autoEdit' ? mode : await pick();
  if (!chosen) return undefined;
  return told(await deps.app.runPlan(chosen), deps.log) ? chosen : undefined;
}

/** Shows a refusal or a failure; true when the plan went to the agent (sent, or queued behind a turn). */
function told(outcome: PromptOutcome, log: Logger): boolean {
  if (outcome.kind === 'refused') showRefusal(outcome, log);
  else if (outcome.kind === 'error') void vscode.window.showErrorMessage(outcome.message);
  return outcome.kind === 'sent' || outcome.kind === 'queued';
}

async function pick(): Promise<RunMode | undefined> {
  const items = approvalModeItems(['ask', 'autoEdit'], undefined);
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: Run This Plan'), placeHolder: vscode.l10n.t('Carry out the plan in which mode?') });
  return picked?.mode as RunMode | undefined;
}
