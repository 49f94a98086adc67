// Maps the app controller's view models and agent events onto the webview protocol (src/protocol),
// truncating to the protocol's bounds so a huge tool output cannot make a message invalid.
import type { AgentEvent, ApprovalRequest, UsageInfo } from '../agent/events';
import type { AgentTool } from '../agent/tools/types';
import type { ConversationEntry } from '../app/view-model';
import { contentText } from '../core/messages';
import { compactionReasonSchema, LIMITS, parseHostMessage, userImages, type AgentUiEvent, type CompactionReasonName, type AssistantBlock, type ConversationItem, type KeptWords, type ToolOriginView, type UsageSnapshot } from '../protocol';
import { wireId } from '../present/wire-ids';
import { errorActions } from '../app/error-actions';
import { stripFileOperations } from '../compaction/file-ops';
import { isDone } from '../compaction/outcome';
import { approvalRequestEvent } from './approval-event';
import { epochMs } from './tree-nodes';

export { toTreeNode } from './tree-nodes';

const REASONS: ReadonlySet<string> = new Set(compactionReasonSchema.options);

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 40))}\n… [${text.length - max + 40} characters not shown]` : text;
}

const ms = epochMs;

function files(list: string[] | undefined): string[] {
  return (list ?? []).slice(0, LIMITS.files).map((f) => clip(f, LIMITS.medium));
}

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

/** A summary's Markdown; its file blocks go when the item carries the lists (shown as lists of their own). */
function summaryText(entry: ConversationEntry): string {
  const hasLists = (entry.readFiles?.length ?? 0) + (entry.modifiedFiles?.length ?? 0) > 0;
  return hasLists ? stripFileOperations(entry.text) : entry.text;
}

function keptWords(kept: NonNullable<ConversationEntry['kept']>): KeptWords[] {
  return kept.slice(0, LIMITS.list).map((c) => ({ entryId: wireId(c.entryId), kind: c.kind, text: clip(c.text, LIMITS.medium) }));
}

/** The native-context note, clipped to what the protocol carries. */
function nativeNote(note: NonNullable<ConversationEntry['nativeContext']>): { provider: string; model: string; host?: string } {
  const short = (text: string) => text.slice(0, LIMITS.short);
  return { provider: short(note.provider), model: short(note.model), ...(note.host ? { host: short(note.host) } : {}) };
}

/** The marker's summarizer label and cost (compaction, branch summary). */
function summarizerFields(entry: ConversationEntry): { model?: string; cost?: number } {
  return {
    ...(entry.summarizer ? { model: entry.summarizer.slice(0, LIMITS.short) } : {}),
    ...(entry.summaryCost !== undefined ? { cost: entry.summaryCost } : {}),
  };
}

export function toItem(entry: ConversationEntry, describe?: ToolDescriber): ConversationItem | undefined {
  const base = { entryId: wireId(entry.id), timestamp: ms(entry.timestamp), ...(entry.label ? { label: entry.label.slice(0, LIMITS.label) } : {}), ...(entry.pinned ? { pinned: true } : {}), ...(entry.stageStart ? { stageStart: true } : {}) };
  switch (entry.kind) {
    case 'user': {
      const images = userImages(entry.blocks);
      return { kind: 'user', ...base, text: clip(entry.text, LIMITS.content), ...(images ? { images } : {}) };
    }
    case 'assistant': {
      const blocks = entry.blocks.slice(0, LIMITS.blocks).flatMap((block): AssistantBlock[] => {
        if (block.type === 'text') return [{ type: 'text' as const, text: clip(block.text, LIMITS.content) }];
        if (block.type === 'thinking') return [{ type: 'thinking' as const, thinking: clip(block.text, LIMITS.content) }];
        if (block.type === 'toolCall') return [toolCallBlock(block.id, block.name, block.args, describe)];
        return [];
      });
      const stop = entry.stopReason;
      return {
        kind: 'assistant',
        ...base,
        blocks,
        ...(entry.model ? { model: entry.model.slice(0, LIMITS.short) } : {}),
        ...(entry.provider ? { provider: entry.provider.slice(0, LIMITS.short) } : {}),
        stopReason: stop === 'stop' || stop === 'length' || stop === 'toolUse' || stop === 'error' || stop === 'aborted' ? stop : 'stop',
        ...(entry.errorMessage ? { errorMessage: clip(entry.errorMessage, LIMITS.medium) } : {}),
        ...(entry.usage ? { tokens: Math.max(0, Math.floor(entry.usage.input + entry.usage.output)), cost: Math.max(0, entry.usage.cost) } : {}),
      };
    }
    case 'toolResult':
      return {
        kind: 'toolResult',
        ...base,
        toolCallId: wireId(entry.toolCallId ?? ''),
        toolName: (entry.toolName ?? '').slice(0, LIMITS.short),
        text: clip(entry.text, LIMITS.content),
        isError: entry.isError === true,
        ...(entry.toolStatus ? { status: entry.toolStatus } : {}),
        ...(entry.imageNotSentTo ? { imageNotSentTo: entry.imageNotSentTo.slice(0, LIMITS.short) } : {}),
      };
    case 'compaction':
      return {
        kind: 'compaction',
        ...base,
        summary: clip(summaryText(entry), LIMITS.content),
        ...(entry.shortSummary ? { shortSummary: clip(entry.shortSummary, LIMITS.medium) } : {}),
        tokensBefore: Math.max(0, Math.floor(entry.tokensBefore ?? 0)),
        ...(entry.tokensAfter !== undefined ? { tokensAfter: Math.floor(entry.tokensAfter), ...(entry.tokensAfterMeasured ? {} : { tokensAfterEstimated: true }) } : {}),
        ...summarizerFields(entry),
        ...(entry.reason && REASONS.has(entry.reason) ? { reason: entry.reason as CompactionReasonName } : {}),
        readFiles: files(entry.readFiles),
        modifiedFiles: files(entry.modifiedFiles),
        firstKeptEntryId: wireId(entry.firstKeptEntryId || entry.id),
        ...(entry.kept?.length ? { kept: keptWords(entry.kept) } : {}),
        ...(entry.nativeContext ? { nativeContext: nativeNote(entry.nativeContext) } : {}),
      };
    case 'branch_summary':
      return {
        kind: 'branch_summary',
        ...base,
        summary: clip(summaryText(entry), LIMITS.content),
        fromId: wireId(entry.fromId || 'root'),
        ...summarizerFields(entry),
        readFiles: files(entry.readFiles),
        modifiedFiles: files(entry.modifiedFiles),
        ...(entry.stage ? { stage: { leafId: wireId(entry.stage.leafId), ...(entry.stage.label ? { label: entry.stage.label.slice(0, LIMITS.label) } : {}) } } : {}),
      };
    case 'custom_message':
      return { kind: 'custom_message', ...base, customType: (entry.customType ?? '').slice(0, LIMITS.short), text: clip(entry.text, LIMITS.content) };
    case 'bash':
      return {
        kind: 'bash',
        ...base,
        command: clip(entry.command ?? '', LIMITS.medium),
        output: clip(entry.text, LIMITS.content),
        exitCode: typeof entry.exitCode === 'number' ? entry.exitCode : null,
        cancelled: entry.cancelled === true,
      };
    case 'notice':
      return { kind: 'notice', ...base, level: 'info', text: clip(entry.text, LIMITS.medium) };
    default:
      return notAViewKind(entry.kind);
  }
}

/** Every view kind has a case above (a new one fails to compile here); views are built by the entry kinds. */
function notAViewKind(kind: never): undefined {
  void kind;
  return undefined;
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

/** Cost and tokens of the replies on a path. */
export function branchTotals(conversation: readonly ConversationEntry[]): { cost: number; tokens: number } {
  let cost = 0;
  let tokens = 0;
  for (const entry of conversation) {
    if (entry.kind !== 'assistant' || !entry.usage) continue;
    cost += entry.usage.cost;
    tokens += entry.usage.input + entry.usage.output;
  }
  return { cost, tokens };
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
