// "Arbor: Next Approval Mode" (the chat's keybinding): Ask → Auto-edit → Plan → Ask in the focused chat,
// said in the status bar for a moment so the switch is seen even where the composer is out of view.
import * as vscode from 'vscode';
import { nextApprovalMode, type ApprovalMode } from '../../core/approval-modes';
import { approvalModeLabel } from '../approval-mode-words';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.cycleApprovalMode';

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (): Promise<ApprovalMode> => {
    const mode = nextApprovalMode(deps.app.approvalMode());
    await deps.app.setApprovalMode(mode);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Arbor approval mode: {0}', approvalModeLabel(mode)), 3000);
    return mode;
  });
}
