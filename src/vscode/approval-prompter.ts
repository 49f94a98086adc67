// Asks the user before a mutating tool call runs. The question itself reaches the chat webview as the
// agent's `approval_request` event; this object holds the pending answers, which come back from the
// webview (approve/deny messages), from the extension API (tests, other extensions) or are aborted by
// Stop. For write/edit it can open VS Code's diff editor on the proposed content ("Review diff").
import * as vscode from 'vscode';
import type { ApprovalAnswer, ApprovalWarning } from '../agent/approval';
import type { ApprovalPrompter, ApprovalRequest } from '../agent/events';
import { asFileChange, canDiff } from '../app/approval-preview';
import { approvalRequestProblem } from './chat-items';
import { Disposable } from './disposable';

export const PROPOSED_SCHEME = 'arbor-proposed';

interface Pending {
  request: ApprovalRequest;
  resolve: (answer: ApprovalAnswer) => void;
}

export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  canDiff: boolean;
  /** why this call asks whatever the settings say (protected file, hard link) */
  warnings: ApprovalWarning[];
}

export { canDiff } from '../app/approval-preview';

/** Closes the Review-diff tabs of a call once it is answered: what they showed is decided (or written). */
async function closeReviewTabs(toolCallId: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSED_SCHEME && tab.input.modified.query === toolCallId);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

export class ChatApprovalPrompter extends Disposable implements ApprovalPrompter {
  private readonly pending = new Map<string, Pending>();
  private readonly proposed = new Map<string, string>();
  private readonly emitter = this.register(new vscode.EventEmitter<PendingApproval>());
  private readonly contentEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  /** fires when a new approval is waiting (the host reveals the chat) */
  readonly onDidRequest = this.emitter.event;

  constructor() {
    super();
    const provider: vscode.TextDocumentContentProvider = {
      onDidChange: this.contentEmitter.event,
      provideTextDocumentContent: (uri) => this.proposed.get(uri.query) ?? '',
    };
    this.register(vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, provider));
  }

  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return new Promise<ApprovalAnswer>((resolve) => {
      const finish = (answer: ApprovalAnswer) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(request.toolCallId);
        this.proposed.delete(request.toolCallId);
        void closeReviewTabs(request.toolCallId);
        resolve(answer);
      };
      // The agent treats an aborted ask as a stop; the answer does not matter, only that we let go.
      const onAbort = () => finish({ kind: 'deny', feedback: 'Stopped by the user.' });
      if (signal.aborted) return onAbort();
      // An approval card the webview cannot show would leave the agent waiting forever: deny at once.
      const unshowable = approvalRequestProblem(request);
      if (unshowable) return resolve({ kind: 'deny', feedback: `Arbor could not show this approval request, so the call did not run: ${unshowable}` });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.toolCallId, { request, resolve: finish });
      this.emitter.fire(this.describe(request));
    });
  }

  /** The approvals waiting for an answer, oldest first. */
  list(): PendingApproval[] {
    return [...this.pending.values()].map((p) => this.describe(p.request));
  }

  /** The requests waiting for an answer, oldest first (a reloaded chat shows their cards again). */
  pendingRequests(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Answers a pending approval; false when nothing waits for `toolCallId`. */
  answer(toolCallId: string, answer: ApprovalAnswer): boolean {
    const pending = this.pending.get(toolCallId);
    if (!pending) return false;
    pending.resolve(answer);
    return true;
  }

  /** Opens the diff editor: current file (or empty) ↔ proposed content. False when there is nothing to diff. */
  async openDiff(toolCallId: string): Promise<boolean> {
    const pending = this.pending.get(toolCallId);
    const change = pending ? asFileChange(pending.request.preview) : undefined;
    if (!change) return false;
    this.proposed.set(toolCallId, change.proposed);
    const name = change.path.split(/[\\/]/).pop() ?? change.path;
    const right = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${name}`, query: toolCallId });
    this.contentEmitter.fire(right);
    const left = change.isNewFile ? vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${name}`, query: `empty-${toolCallId}` }) : vscode.Uri.file(change.absolutePath);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} ↔ proposed by ${pending!.request.toolName} (Arbor)`, { preview: true });
    return true;
  }

  private describe(request: ApprovalRequest): PendingApproval {
    return { toolCallId: request.toolCallId, toolName: request.toolName, args: request.args, canDiff: canDiff(request), warnings: request.warnings ?? [] };
  }

  override dispose(): void {
    for (const pending of [...this.pending.values()]) pending.resolve({ kind: 'deny', feedback: 'Arbor was closed.' });
    super.dispose();
  }
}
