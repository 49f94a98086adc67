// The conversation view of one session entry: what the chat shows of it. Built from loosely checked data
// (the loader accepts any entry with a valid base and required fields), so every field goes through the
// normalisation in normalize-view.ts; what had to be repaired is listed in the view's `problems`.
import { constraintsFromDetails } from '../compaction/constraints';
import { contentText, type AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import {
  finiteCount,
  noteEntryId,
  optionalText,
  readableText,
  toolArguments,
  toolCallIdText,
  usageView,
  type ViewProblems,
} from './normalize-view';
import type { ConversationEntry, ConversationKind, ToolCallView, ViewBlock } from './view-model';

type LooseBlock = { type: string; [k: string]: unknown };
type Content = string | readonly LooseBlock[];

function textBlocks(content: Content, problems: ViewProblems): ViewBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: ViewBlock[] = [];
  for (const block of content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: readableText(block.text, 'text', problems) });
    else if (block.type === 'image') blocks.push({ type: 'image', mimeType: String(block.mimeType ?? '') });
  }
  return blocks;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** The fields every view has; optional ones are assigned only when present (plain literals, no spreads:
 *  opening a long session builds tens of thousands of these, and spreads make them slow and large). */
function baseView(entry: SessionEntry, kind: ConversationKind, text: string, blocks: ViewBlock[], label: string | undefined): ConversationEntry {
  const view: ConversationEntry = { id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp, kind, text, blocks };
  if (label) view.label = label;
  return view;
}

function addFiles(view: ConversationEntry, details: unknown): Record<string, unknown> {
  const record = (typeof details === 'object' && details !== null ? details : {}) as Record<string, unknown>;
  const readFiles = stringList(record.readFiles);
  const modifiedFiles = stringList(record.modifiedFiles);
  if (readFiles) view.readFiles = readFiles;
  if (modifiedFiles) view.modifiedFiles = modifiedFiles;
  return record;
}

function toolCallOf(block: LooseBlock, problems: ViewProblems): ToolCallView {
  return { id: toolCallIdText(block.id, problems), name: readableText(block.name, 'tool name', problems), args: toolArguments(block.arguments, problems) };
}

function assistantBlocks(content: readonly LooseBlock[], problems: ViewProblems): { blocks: ViewBlock[]; toolCalls: ToolCallView[]; text: string } {
  const blocks: ViewBlock[] = [];
  const toolCalls: ToolCallView[] = [];
  let text = '';
  for (const block of content) {
    if (block.type === 'text') {
      const part = readableText(block.text, 'text', problems);
      blocks.push({ type: 'text', text: part });
      if (typeof block.text === 'string') text += block.text;
    } else if (block.type === 'thinking') blocks.push({ type: 'thinking', text: readableText(block.thinking, 'thinking', problems) });
    else if (block.type === 'toolCall') {
      const call = toolCallOf(block, problems);
      blocks.push({ type: 'toolCall', id: call.id, name: call.name, args: call.args });
      toolCalls.push({ id: call.id, name: call.name, args: call.args });
    }
  }
  return { blocks, toolCalls, text };
}

function assistantView(entry: SessionEntry, message: Extract<AgentMessage, { role: 'assistant' }>, label: string | undefined, problems: ViewProblems): ConversationEntry {
  const { blocks, toolCalls, text } = assistantBlocks(message.content as readonly LooseBlock[], problems);
  const view = baseView(entry, 'assistant', text, blocks, label);
  view.model = message.model;
  view.provider = message.provider;
  const stopReason = optionalText(message.stopReason, 'stopReason', problems);
  if (stopReason !== undefined) view.stopReason = stopReason;
  const errorMessage = optionalText(message.errorMessage, 'errorMessage', problems);
  if (errorMessage) view.errorMessage = errorMessage;
  view.toolCalls = toolCalls;
  const usage = usageView(message.usage, problems);
  if (usage) view.usage = usage;
  return view;
}

/** An extension's message, whether stored as a `custom` role message or a `custom_message` entry. */
function customMessageView(entry: SessionEntry, content: Content, customType: string, label: string | undefined, problems: ViewProblems): ConversationEntry {
  const view = baseView(entry, 'custom_message', contentText(content), textBlocks(content, problems), label);
  view.customType = customType;
  return view;
}

function messageView(entry: SessionEntry, message: AgentMessage, label: string | undefined, problems: ViewProblems): ConversationEntry | undefined {
  switch (message.role) {
    case 'user':
      return baseView(entry, 'user', contentText(message.content), textBlocks(message.content, problems), label);
    case 'assistant':
      return assistantView(entry, message, label, problems);
    case 'toolResult': {
      const view = baseView(entry, 'toolResult', contentText(message.content), textBlocks(message.content, problems), label);
      view.toolCallId = toolCallIdText(message.toolCallId, problems);
      view.toolName = message.toolName;
      view.isError = message.isError === true;
      return view;
    }
    case 'bashExecution': {
      const view = baseView(entry, 'bash', message.output, [{ type: 'text', text: message.output }], label);
      view.command = message.command;
      view.exitCode = typeof message.exitCode === 'number' && Number.isInteger(message.exitCode) ? message.exitCode : null;
      view.cancelled = message.cancelled === true;
      return view;
    }
    case 'custom':
      return message.display === false ? undefined : customMessageView(entry, message.content, message.customType, label, problems);
    default:
      return undefined;
  }
}

/** Whether the chat shows `entry` (conversationEntry gives it a view), without building anything. */
export function isShownInConversation(entry: SessionEntry): boolean {
  switch (entry.type) {
    case 'message': {
      const message = entry.message;
      if (message.role === 'custom') return message.display !== false;
      return message.role === 'user' || message.role === 'assistant' || message.role === 'toolResult' || message.role === 'bashExecution';
    }
    case 'compaction':
    case 'branch_summary':
    case 'model_change':
    case 'thinking_level_change':
      return true;
    case 'custom_message':
      return entry.display !== false;
    default:
      return false;
  }
}

function compactionView(entry: Extract<SessionEntry, { type: 'compaction' }>, label: string | undefined, problems: ViewProblems): ConversationEntry {
  const view = baseView(entry, 'compaction', entry.summary, [{ type: 'text', text: entry.summary }], label);
  view.tokensBefore = finiteCount(entry.tokensBefore, 'tokensBefore', problems);
  view.firstKeptEntryId = entry.firstKeptEntryId;
  const shortSummary = optionalText(entry.shortSummary, 'shortSummary', problems);
  if (shortSummary) view.shortSummary = shortSummary;
  const details = addFiles(view, entry.details);
  if (typeof details.reason === 'string') view.reason = details.reason;
  if (entry.fromHook) view.fromHook = true;
  const kept = constraintsFromDetails(entry.details, entry.fromHook);
  if (kept.length > 0) view.kept = kept;
  return view;
}

/** `details.stage` of a stage summary (src/branch/stage.ts), when well formed. */
function stageOf(details: unknown): ConversationEntry['stage'] {
  const stage = (details as { stage?: { fromEntryId?: unknown; leafId?: unknown; label?: unknown } } | null | undefined)?.stage;
  if (typeof stage?.fromEntryId !== 'string' || typeof stage.leafId !== 'string') return undefined;
  return { fromEntryId: stage.fromEntryId, leafId: stage.leafId, ...(typeof stage.label === 'string' && stage.label ? { label: stage.label } : {}) };
}

function entryView(entry: SessionEntry, label: string | undefined, problems: ViewProblems): ConversationEntry | undefined {
  switch (entry.type) {
    case 'message':
      return messageView(entry, entry.message, label, problems);
    case 'compaction':
      return compactionView(entry, label, problems);
    case 'branch_summary': {
      const view = baseView(entry, 'branch_summary', entry.summary, [{ type: 'text', text: entry.summary }], label);
      view.fromId = entry.fromId;
      addFiles(view, entry.details);
      const stage = stageOf(entry.details);
      if (stage) view.stage = stage;
      if (entry.fromHook) view.fromHook = true;
      return view;
    }
    case 'model_change':
    case 'thinking_level_change': {
      const text = entry.type === 'model_change' ? `Model: ${entry.provider}/${entry.modelId}` : `Thinking level: ${entry.thinkingLevel}`;
      return baseView(entry, 'notice', text, [{ type: 'text', text }], label);
    }
    case 'custom_message':
      return entry.display === false ? undefined : customMessageView(entry, entry.content, entry.customType, label, problems);
    default:
      return undefined;
  }
}

/**
 * The conversation view of one entry, or undefined for entries the chat does not show (model/thinking
 * changes, labels, custom data, hidden custom messages). Repairs made to show it are in `view.problems`.
 */
export function conversationEntry(entry: SessionEntry, label?: string): ConversationEntry | undefined {
  if (!isShownInConversation(entry)) return undefined;
  const problems: ViewProblems = [];
  noteEntryId(entry.id, problems);
  const view = entryView(entry, label, problems);
  if (view && problems.length > 0) view.problems = problems;
  return view;
}
