// What the agent runtime tells the UI. One typed union, emitted in order; every persisted message is
// reported with the id of its session entry so the UI can line the chat up with the tree.
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage } from '../core/messages';
import type { CompactionAction, CompactionOutcome, CompactionReason } from '../compaction';
import type { ModelInfo } from '../llm/types';
import type { ApprovalAnswer, ApprovalWarning } from './approval';

/** What the UI (chat panel, VS Code diff editor) is asked before a tool call that changes things runs. */
export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** what a tool whose effect is `runs` will run, as it says (bash: the whole command) */
  command?: string;
  /** optional extra for the UI (e.g. the proposed file content of an edit), from `approvalPreview` */
  preview?: unknown;
  /** why this call asks whatever the settings say (protected file, hard link); shown as a warning */
  warnings?: ApprovalWarning[];
}

export interface ApprovalPrompter {
  /** Resolves with the user's answer. The signal aborts when the user stops the agent meanwhile. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

export interface UsageInfo {
  /** context tokens the model sees now; null right after a compaction until a new reply reports usage */
  contextTokens: number | null;
  /** estimate used when `contextTokens` is null (chars/4 of the context) */
  estimatedTokens: number;
  contextWindow: number;
  /** automatic compaction runs above this (compaction.thresholdTokens / thresholdPercent / reserve rule) */
  thresholdTokens: number;
  /** USD of the newest assistant reply, and of every reply this session object has seen */
  lastCost: number;
  sessionCost: number;
}

export type MessageDelta =
  | { kind: 'text' | 'thinking'; contentIndex: number; delta: string }
  | { kind: 'toolcall_start'; contentIndex: number; id: string; name: string }
  | { kind: 'toolcall'; contentIndex: number; delta: string }
  | { kind: 'toolcall_end'; contentIndex: number; toolCall: ToolCall };

export type ToolEndStatus = 'done' | 'error' | 'denied' | 'aborted' | 'skipped';

export type AgentEvent =
  | { type: 'busy' }
  | { type: 'idle' }
  /** a message begins: user/custom/toolResult messages start and end at once; assistant ones stream */
  | { type: 'message_start'; role: AgentMessage['role']; message?: AgentMessage }
  | ({ type: 'message_delta' } & MessageDelta)
  /** a message was persisted as session entry `entryId` */
  | { type: 'message_end'; message: AgentMessage; entryId: string }
  | { type: 'tool_start'; toolCallId: string; toolName: string; args: Record<string, unknown> }
  /** bash output so far (replaces earlier updates) */
  | { type: 'tool_update'; toolCallId: string; partialText: string }
  | { type: 'tool_end'; toolCallId: string; toolName: string; status: ToolEndStatus; result: ToolResultMessage; entryId: string }
  | { type: 'approval_request'; request: ApprovalRequest }
  | { type: 'approval_resolved'; toolCallId: string; approved: boolean; answer?: ApprovalAnswer; reason?: string }
  | { type: 'usage'; usage: UsageInfo }
  /** `provider`: whose request failed (a failed reply's), so the UI can offer that provider's fix */
  | { type: 'error'; message: string; kind?: string; provider?: string }
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  /** the messages waiting to be sent after the current turn, oldest first */
  | { type: 'queued'; messages: string[] }
  | { type: 'compaction_start'; reason: CompactionReason; action: CompactionAction }
  | {
      type: 'compaction_end';
      reason: CompactionReason;
      outcome: CompactionOutcome;
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
    }
  /**
   * warnBeforeAuto: the user answered "later" to an automatic compaction. It is not asked again before
   * the context reaches `askAgainAt` tokens (or any compaction runs).
   */
  | { type: 'compaction_deferred'; reason: 'threshold' | 'idle'; contextTokens: number; threshold: number; askAgainAt: number }
  | { type: 'notice'; level: 'info' | 'warning'; message: string }
  /** reply `entryId` stopped at the output limit and no recovery applied: the UI offers Continue (continueReply) */
  | { type: 'cut_off'; entryId: string }
  | { type: 'model_changed'; model: ModelInfo; entryId?: string }
  | { type: 'thinking_level_changed'; level: string; entryId?: string }
  /** the leaf moved or the file changed outside the loop (tree navigation): re-render from the store */
  | { type: 'refreshed'; leafId: string | null }
  /** a handoff moved the conversation to a new session file */
  | { type: 'session_replaced'; previousFile: string; file: string };

export type AgentEventListener = (event: AgentEvent) => void;

export function assistantToolCalls(message: AssistantMessage): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === 'toolCall');
}

/** Delivers events to every listener in order; a listener that throws is logged and the others still hear. */
export class AgentEventListeners {
  private readonly listeners = new Set<AgentEventListener>();

  constructor(private readonly log?: (message: string) => void) {}

  add(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.log?.(`agent event listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
