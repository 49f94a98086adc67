// The `approval_request` message the chat webview renders as an approval card: the call, the warnings
// that made it ask (protected file, hard link), the whole command of a tool that runs one, and for a
// file-writing tool with a preview a compact unified diff computed here on
// the host from the preview, so the card shows exactly what will change (docs/reliability.md).
import type { ApprovalRequest } from '../agent/events';
import { asFileChange } from '../app/approval-preview';
import { compactDiff } from '../core/line-diff';
import { wireId } from '../present/wire-ids';
import { LIMITS, type AgentUiEvent, type ApprovalDiffView, type ApprovalWarningView } from '../protocol';

type ApprovalRequestEvent = Extract<AgentUiEvent, { type: 'approval_request' }>;

const MAX_WARNINGS = 10;
/** diff lines on the card; the rest is one click away in the diff editor */
const CARD_DIFF_LINES = 150;

function warningViews(request: ApprovalRequest): ApprovalWarningView[] {
  return (request.warnings ?? []).slice(0, MAX_WARNINGS).map((w) => ({ kind: w.kind, message: w.message.slice(0, LIMITS.medium) }));
}

function diffView(request: ApprovalRequest): ApprovalDiffView | undefined {
  const change = asFileChange(request.preview);
  if (!change) return undefined;
  return { ...compactDiff(change.original, change.proposed, { maxLines: CARD_DIFF_LINES }), isNewFile: change.isNewFile };
}

/** `args` arrive already bounded by the caller (chat-items' boundedArgs). */
export function approvalRequestEvent(request: ApprovalRequest, args: Record<string, unknown>): ApprovalRequestEvent {
  const warnings = warningViews(request);
  const diff = diffView(request);
  return {
    type: 'approval_request',
    toolCallId: wireId(request.toolCallId),
    toolName: request.toolName.slice(0, LIMITS.short),
    args,
    canDiff: diff !== undefined,
    // never cut: a command too long for the card fails validation and the call is denied (approvalRequestProblem)
    ...(request.command !== undefined ? { command: request.command } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(diff ? { diff } : {}),
  };
}
