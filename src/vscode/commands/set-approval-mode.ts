// "Arbor: Set Approval Mode": a QuickPick of Ask / Auto-edit / Plan for the focused chat (or the mode given
// as argument, e.g. from a keybinding's `args`). The mode is recorded in the chat's session.
import * as vscode from 'vscode';
import { APPROVAL_MODES, isApprovalMode, type ApprovalMode } from '../../core/approval-modes';
import { approvalModeItems } from '../approval-mode-words';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.setApprovalMode';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (mode?: unknown): Promise<ApprovalMode | undefined> => {
    const chosen = isApprovalMode(mode) ? mode : await pick(deps.app.approvalMode());
    if (!chosen) return undefined;
    await deps.app.setApprovalMode(chosen);
    return chosen;
  });
}

async function pick(current: ApprovalMode): Promise<ApprovalMode | undefined> {
  const items = approvalModeItems(APPROVAL_MODES, current);
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Arbor: Set Approval Mode'), placeHolder: vscode.l10n.t('How much may the agent do without asking?') });
  return picked?.mode;
}
