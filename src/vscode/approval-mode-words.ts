// The approval modes in the user's words, localized: the QuickPick rows of Set Approval Mode and Run This
// Plan, and the status bar message of Next Approval Mode. What each mode does is decided in
// src/agent/approval.ts; these words must say the same (docs/architecture.md, "Approval modes").
import * as vscode from 'vscode';
import type { ApprovalMode } from '../core/approval-modes';

export function approvalModeLabel(mode: ApprovalMode): string {
  if (mode === 'autoEdit') return vscode.l10n.t('Auto-edit');
  if (mode === 'plan') return vscode.l10n.t('Plan');
  return vscode.l10n.t('Ask');
}

function approvalModeDetail(mode: ApprovalMode): string {
  if (mode === 'autoEdit') return vscode.l10n.t('File changes inside the workspace run without asking; commands, protected files and tools from outside still ask.');
  if (mode === 'plan') return vscode.l10n.t('The agent only reads and writes a plan; nothing is changed until you run it.');
  return vscode.l10n.t('Every file change and command asks first.');
}

export interface ApprovalModeItem extends vscode.QuickPickItem {
  mode: ApprovalMode;
}

export function approvalModeItems(modes: readonly ApprovalMode[], current: ApprovalMode | undefined): ApprovalModeItem[] {
  return modes.map((mode) => ({
    mode,
    label: approvalModeLabel(mode),
    detail: approvalModeDetail(mode),
    ...(mode === current ? { description: vscode.l10n.t('current') } : {}),
  }));
}
