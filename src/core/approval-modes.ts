// The approval modes a session runs in (docs/architecture.md, "Approval modes"), and how the mode is
// recorded in the session file: an `arbor.approvalMode` custom entry each time the user changes it (pi
// reads custom entries and ignores them), the last one in the file is the session's mode when it is
// opened again. Here, apart from src/agent/approval.ts, so the entry's tree row (src/present) and the
// agent read one definition.

/** `ask`: every tool that changes things asks. `autoEdit`: file writes inside the workspace run without
 * asking. `plan`: only tools that change nothing are offered; the agent writes a plan. */
export type ApprovalMode = 'ask' | 'autoEdit' | 'plan';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'autoEdit', 'plan'];

export const APPROVAL_MODE_CUSTOM_TYPE = 'arbor.approvalMode';

export const APPROVAL_MODE_LABELS: Readonly<Record<ApprovalMode, string>> = {
  ask: 'Ask',
  autoEdit: 'Auto-edit',
  plan: 'Plan',
};

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/** The mode an `arbor.approvalMode` entry records; undefined for any other entry or a malformed one. */
export function approvalModeOf(entry: { type: string; customType?: unknown; data?: unknown }): ApprovalMode | undefined {
  if (entry.type !== 'custom' || entry.customType !== APPROVAL_MODE_CUSTOM_TYPE) return undefined;
  const mode = (entry.data as { mode?: unknown } | null | undefined)?.mode;
  return isApprovalMode(mode) ? mode : undefined;
}

/** The session's mode: the last one recorded in the file (in file order), else undefined. */
export function recordedApprovalMode(entries: readonly { type: string; customType?: unknown; data?: unknown }[]): ApprovalMode | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const mode = approvalModeOf(entries[i]!);
    if (mode) return mode;
  }
  return undefined;
}

/** The mode after `mode` in the cycle Ask → Auto-edit → Plan → Ask. */
export function nextApprovalMode(mode: ApprovalMode): ApprovalMode {
  return APPROVAL_MODES[(APPROVAL_MODES.indexOf(mode) + 1) % APPROVAL_MODES.length]!;
}
