// "Arbor: Run This Plan": leaves Plan mode in the focused chat for the mode the user picks (Ask or
// Auto-edit, or the one given as argument) and asks the agent to carry out the plan it wrote.
import * as vscode from 'vscode';
import type { ApprovalMode } from '../../core/approval-modes';
import { approvalModeItems } from '../approval-mode-words';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.runPlan';

type RunMode = Exclude<ApprovalMode, 'plan'>;

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (mode?: unknown): Promise<RunMode | undefined> => {
    const chosen = mode === 'ask' || mode === 'autoEdit' ? mode : await pick();
    if (!chosen) return undefined;
    await deps.app.runPlan(chosen);
    return chosen;
  });
}

async function pick(): Promise<RunMode | undefined> {
  const items = approvalModeItems(['ask', 'autoEdit'], undefined);
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: Run This Plan'), placeHolder: vscode.l10n.t('Carry out the plan in which mode?') });
  return picked?.mode as RunMode | undefined;
}
