// Maps the app controller's view models and agent events onto the webview protocol (src/protocol). A
// conversation view has its item's fields already (src/present/view-types.ts): it is only bounded to the
// protocol's limits, so a huge tool output cannot make a message invalid, and its ids made wire ids.
import type { AgentEvent, ApprovalRequest, UsageInfo } from '../agent/events';
import type { AgentTool } from '../agent/tools/types';
import type { AssistantView, BranchSummaryView, CompactionView, ConversationEntry, ToolResultView } from '../app/view-model';
import { contentText } from '../core/messages';
import { LIMITS, parseHostMessage, type AgentUiEvent, type AssistantBlock, type AssistantItem, type BranchSummaryItem, type CompactionItem, type ConversationItem, type ToolOriginView, type ToolResultItem, type UsageSnapshot } from '../protocol';
import { wireId } from '../present/wire-ids';
import { errorActions } from '../app/error-actions';
import { isDone } from '../compaction/outcome';
import { approvalRequestEvent } from './approval-event';
import { epochMs } from './tree-nodes';

export { toTreeNode } from './tree-nodes';

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 40))}\n… [${text.length - max + 40} characters not shown]` : text;
}

const ms = epochMs;

function boundedArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    out[key.slice(0, LIMITS.short)] = typeof value === 'string' ? clip(value, LIMITS.content) : value;
  }
  return out;
}

/** The live tool of a name, for its traits on the card (undefined: not in the list, or none known). */
export type ToolDescriber = (name: string) => Pick<AgentTool, 'effect' | 'origin'> | undefined;

/** A tool call as the card gets it: with the tool's effect kind and origin when the host knows the tool. */
function toolCallBlock(id: string, name: string, args: Record<string, unknown>, describe: ToolDescriber | undefined): Extract<AssistantBlock, { type: 'toolCall' }> {
  const tool = describe?.(name);
  return {
    type: 'toolCall',
    id: wireId(id),
    name: name.slice(0, LIMITS.short),
    arguments: boundedArgs(args),
    ...(tool ? { effect: tool.effect.kind, origin: originView(tool.origin) } : {}),
  };
}

function originView(origin: AgentTool['origin']): ToolOriginView {
  const short = (text: string) => text.slice(0, LIMITS.short);
  if (origin.kind === 'mcp') return { kind: 'mcp', server: short(origin.server), tool: short(origin.tool) };
  if (origin.kind === 'vscode') return { kind: 'vscode', tool: short(origin.tool) };
  return { kind: 'builtin' };
}

const short = (text: string) => text.slice(0, LIMITS.short);
const count = (n: number) => Math.max(0, Math.floor(n));

/** The fields every item has: the wire id, ms since the epoch, and the bounded label. */
function itemBase(view: ConversationEntry): { entryId: string; timestamp: number; label?: string; pinned?: true; stageStart?: true } {
  return { entryId: wireId(view.id), timestamp: ms(view.timestamp), ...(view.label ? { label: view.label.slice(0, LIMITS.label) } : {}), ...(view.pinned ? { pinned: true } : {}), ...(view.stageStart ? { stageStart: true } : {}) };
}

function assistantItem(view: AssistantView, describe: ToolDescriber | undefined): AssistantItem {
  const blocks = view.blocks.slice(0, LIMITS.blocks).map((block): AssistantBlock => {
    if (block.type === 'text') return { type: 'text', text: clip(block.text, LIMITS.content) };
    if (block.type === 'thinking') return { type: 'thinking', thinking: clip(block.thinking, LIMITS.content) };
    return toolCallBlock(block.id, block.name, block.arguments, describe);
  });
  return {
    kind: 'assistant',
    ...itemBase(view),
    blocks,
    ...(view.model ? { model: short(view.model) } : {}),
    ...(view.provider ? { provider: short(view.provider) } : {}),
    stopReason: view.stopReason,
    ...(view.errorMessage ? { errorMessage: clip(view.errorMessage, LIMITS.medium) } : {}),
    ...(view.tokens !== undefined ? { tokens: count(view.tokens) } : {}),
    ...(view.cost !== undefined ? { cost: Math.max(0, view.cost) } : {}),
  };
}

/** An MCP result's server, tool and resource links, clipped to the protocol. */
function mcpNote(mcp: NonNullable<ToolResultView['mcp']>): ToolResultItem['mcp'] {
  const links = mcp.links.slice(0, 50).map((l) => (l.name === undefined ? { uri: l.uri.slice(0, LIMITS.medium) } : { uri: l.uri.slice(0, LIMITS.medium), name: short(l.name) }));
  return { server: short(mcp.server), tool: short(mcp.tool), links };
}

function toolResultItem(view: ToolResultView): ToolResultItem {
  return {
    kind: 'toolResult',
    ...itemBase(view),
    toolCallId: wireId(view.toolCallId),
    toolName: short(view.toolName),
    text: clip(view.text, LIMITS.content),
    isError: view.isError,
    ...(view.status ? { status: view.status } : {}),
    ...(view.imageNotSentTo ? { imageNotSentTo: short(view.imageNotSentTo) } : {}),
    ...(view.images ? { images: view.images } : {}),
    ...(view.mcp ? { mcp: mcpNote(view.mcp) } : {}),
  };
}

function files(list: readonly string[]): string[] {
  return list.slice(0, LIMITS.files).map((f) => clip(f, LIMITS.medium));
}

/** The marker's summarizer label and cost (compaction, branch summary). */
function summarizerFields(view: CompactionView | BranchSummaryView): { model?: string; cost?: number } {
  return { ...(view.model ? { model: short(view.model) } : {}), ...(view.cost !== undefined ? { cost: view.cost } : {}) };
}

function compactionItem(view: CompactionView): CompactionItem {
  const kept = view.kept?.slice(0, LIMITS.list).map((c) => ({ entryId: wireId(c.entryId), kind: c.kind, text: clip(c.text, LIMITS.medium) }));
  const native = view.nativeContext;
  return {
    kind: 'compaction',
    ...itemBase(view),
    summary: clip(view.summary, LIMITS.content),
    ...(view.shortSummary ? { shortSummary: clip(view.shortSummary, LIMITS.medium) } : {}),
    tokensBefore: count(view.tokensBefore),
    ...(view.tokensAfter !== undefined ? { tokensAfter: Math.floor(view.tokensAfter), ...(view.tokensAfterEstimated ? { tokensAfterEstimated: true } : {}) } : {}),
    ...summarizerFields(view),
    ...(view.reason ? { reason: view.reason } : {}),
    readFiles: files(view.readFiles),
    modifiedFiles: files(view.modifiedFiles),
    firstKeptEntryId: wireId(view.firstKeptEntryId),
    ...(kept?.length ? { kept } : {}),
    ...(native ? { nativeContext: { provider: short(native.provider), model: short(native.model), ...(native.host ? { host: short(native.host) } : {}) } } : {}),
  };
}

function branchSummaryItem(view: BranchSummaryView): BranchSummaryItem {
  const stage = view.stage && { leafId: wireId(view.stage.leafId), ...(view.stage.label ? { label: view.stage.label.slice(0, LIMITS.label) } : {}) };
  return {
    kind: 'branch_summary',
    ...itemBase(view),
    summary: clip(view.summary, LIMITS.content),
    fromId: wireId(view.fromId),
    ...summarizerFields(view),
    readFiles: files(view.readFiles),
    modifiedFiles: files(view.modifiedFiles),
    ...(stage ? { stage } : {}),
  };
}

/** The protocol item of a view: the same fields, bounded to the protocol's limits, with wire ids. */
export function toItem(view: ConversationEntry, describe?: ToolDescriber): ConversationItem {
  switch (view.kind) {
    case 'user':
      return { kind: 'user', ...itemBase(view), text: clip(view.text, LIMITS.content), ...(view.images ? { images: view.images } : {}) };
    case 'assistant':
      return assistantItem(view, describe);
    case 'toolResult':
      return toolResultItem(view);
    case 'compaction':
      return compactionItem(view);
    case 'branch_summary':
      return branchSummaryItem(view);
    case 'custom_message':
      return { kind: 'custom_message', ...itemBase(view), customType: short(view.customType), text: clip(view.text, LIMITS.content) };
    case 'bash':
      return { kind: 'bash', ...itemBase(view), command: clip(view.command, LIMITS.medium), output: clip(view.output, LIMITS.content), exitCode: view.exitCode, cancelled: view.cancelled };
    case 'notice':
      return { kind: 'notice', ...itemBase(view), level: view.level, text: clip(view.text, LIMITS.medium) };
  }
}

export function toUsage(usage: UsageInfo, branch: { cost: number; tokens: number }): UsageSnapshot {
  const count = (n: number) => Math.max(0, Math.floor(Number.isFinite(n) ? n : 0));
  return {
    contextTokens: usage.contextTokens === null ? null : count(usage.contextTokens),
    estimatedTokens: count(usage.estimatedTokens),
    contextWindow: count(usage.contextWindow),
    thresholdTokens: count(usage.thresholdTokens),
    sessionCost: Math.max(0, usage.sessionCost || 0),
    branchCost: Math.max(0, branch.cost || 0),
    branchTokens: count(branch.tokens),
  };
}

/**
 * The UI projection of an agent event; undefined for events the webview learns otherwise (usage is sent
 * with branch totals by the caller; message_end items come from the store append).
 */
function errorEvent(event: Extract<AgentEvent, { type: 'error' }>): AgentUiEvent {
  const actions = errorActions(event.kind, event.provider);
  return {
    type: 'error',
    message: clip(event.message, LIMITS.medium),
    ...(event.kind ? { kind: event.kind.slice(0, LIMITS.short) } : {}),
    ...(actions.length > 0 ? { actions } : {}),
  };
}

export function toUiEvent(event: AgentEvent, describe?: ToolDescriber): AgentUiEvent | undefined {
  switch (event.type) {
    case 'busy':
    case 'idle':
      return { type: event.type };
    case 'message_start':
      if (event.role === 'branchSummary' || event.role === 'compactionSummary' || event.role === 'system') return undefined;
      return { type: 'message_start', role: event.role };
    case 'message_delta': {
      const { type: _type, ...delta } = event;
      if (delta.kind === 'toolcall_end') {
        return {
          type: 'message_delta',
          delta: { kind: 'toolcall_end', contentIndex: delta.contentIndex, toolCall: toolCallBlock(delta.toolCall.id, delta.toolCall.name, delta.toolCall.arguments, describe) },
        };
      }
      if (delta.kind === 'toolcall_start') return { type: 'message_delta', delta: { kind: 'toolcall_start', contentIndex: delta.contentIndex, id: wireId(delta.id), name: delta.name.slice(0, LIMITS.short) } };
      return { type: 'message_delta', delta: { kind: delta.kind, contentIndex: delta.contentIndex, delta: clip(delta.delta, LIMITS.delta) } };
    }
    case 'message_end':
      return undefined;
    case 'tool_start':
      return { type: 'tool_start', toolCallId: wireId(event.toolCallId), toolName: event.toolName.slice(0, LIMITS.short), args: boundedArgs(event.args) };
    case 'tool_update':
      return { type: 'tool_update', toolCallId: wireId(event.toolCallId), partialText: clip(event.partialText, LIMITS.content) };
    case 'tool_end':
      return {
        type: 'tool_end',
        toolCallId: wireId(event.toolCallId),
        toolName: event.toolName.slice(0, LIMITS.short),
        status: event.status,
        resultText: clip(contentText(event.result.content), LIMITS.content),
        entryId: wireId(event.entryId),
      };
    case 'approval_request':
      return approvalRequestEvent(event.request, boundedArgs(event.request.args));
    case 'approval_resolved':
      return {
        type: 'approval_resolved',
        toolCallId: wireId(event.toolCallId),
        approved: event.approved,
        ...(event.answer?.kind === 'approveAlways' ? { always: true } : {}),
        ...(event.reason ? { reason: clip(event.reason, LIMITS.medium) } : {}),
      };
    case 'usage':
      return undefined;
    case 'error':
      return errorEvent(event);
    case 'retry':
      return {
        type: 'retry',
        attempt: Math.min(1000, Math.max(0, Math.floor(event.attempt))),
        maxAttempts: Math.min(1000, Math.max(0, Math.floor(event.maxAttempts))),
        delayMs: Math.min(86_400_000, Math.max(0, Math.floor(event.delayMs))),
        errorMessage: clip(event.errorMessage, LIMITS.medium),
      };
    case 'queued':
      return { type: 'queued', messages: event.messages.slice(0, LIMITS.list).map((m) => clip(m, LIMITS.prompt)) };
    case 'compaction_start':
      return { type: 'compaction_start', reason: event.reason, action: event.action };
    case 'compaction_end':
      return {
        type: 'compaction_end',
        reason: event.reason,
        ok: isDone(event.outcome),
        aborted: event.aborted,
        willRetry: event.willRetry,
        ...(event.errorMessage ? { errorMessage: clip(event.errorMessage, LIMITS.medium) } : {}),
      };
    case 'compaction_deferred':
      return { type: 'notice', level: 'info', message: compactionDeferredText(event) };
    case 'notice':
      return { type: 'notice', level: event.level, message: clip(event.message, LIMITS.medium) };
    case 'cut_off':
      return { type: 'cut_off', entryId: wireId(event.entryId) };
    default:
      return undefined;
  }
}

/**
 * Why the chat webview could not show the approval card for `request` (the message would fail its
 * validation and be dropped), or undefined when it can. The prompter denies such a call at once instead of
 * waiting for an answer that cannot come.
 */
export function approvalRequestProblem(request: ApprovalRequest): string | undefined {
  try {
    const parsed = parseHostMessage({ type: 'agentEvent', event: toUiEvent({ type: 'approval_request', request }) });
    return parsed.ok ? undefined : parsed.reason.slice(0, 500);
  } catch (error) {
    return `the request cannot be shown (${(error as Error)?.message ?? String(error)})`.slice(0, 500);
  }
}

/** The chat's note after the user chose "Later" when asked before an automatic compaction. */
export function compactionDeferredText(event: Extract<AgentEvent, { type: 'compaction_deferred' }>): string {
  const tokens = (n: number) => Math.max(0, Math.round(n)).toLocaleString('en-US');
  const trigger = event.reason === 'idle' ? 'Idle compaction' : 'Automatic compaction';
  return `${trigger} postponed: context is at ${tokens(event.contextTokens)} tokens (threshold ${tokens(event.threshold)}); you will be asked again at about ${tokens(event.askAgainAt)} tokens.`;
}
