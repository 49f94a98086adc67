// Building blocks of the chat's view of an entry (ConversationEntry), shared by the entry kinds
// (src/present/kinds/): every loose field goes through normalize-view.ts, repairs are noted in `problems`.
import { contentText, type AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import { optionalText, readableText, toolArguments, toolCallIdText, usageView, type ViewProblems } from './normalize-view';
import type { ConversationEntry, ConversationKind, ToolCallView, ViewBlock } from './view-types';

export type LooseBlock = { type: string; [k: string]: unknown };
export type Content = string | readonly LooseBlock[];

export function textBlocks(content: Content, problems: ViewProblems): ViewBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: ViewBlock[] = [];
  for (const block of content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: readableText(block.text, 'text', problems) });
    else if (block.type === 'image') blocks.push({ type: 'image', mimeType: String(block.mimeType ?? ''), data: typeof block.data === 'string' ? block.data : '' });
  }
  return blocks;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** The fields every view has; optional ones are assigned only when present (plain literals, no spreads:
 *  opening a long session builds tens of thousands of these, and spreads make them slow and large). */
export function baseView(entry: SessionEntry, kind: ConversationKind, text: string, blocks: ViewBlock[], label: string | undefined): ConversationEntry {
  const view: ConversationEntry = { id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp, kind, text, blocks };
  if (label) view.label = label;
  return view;
}

/** A view whose whole text is one text block (summaries, notices). */
export function textView(entry: SessionEntry, kind: ConversationKind, text: string, label: string | undefined): ConversationEntry {
  return baseView(entry, kind, text, [{ type: 'text', text }], label);
}

export function addFiles(view: ConversationEntry, details: unknown): Record<string, unknown> {
  const record = (typeof details === 'object' && details !== null ? details : {}) as Record<string, unknown>;
  const readFiles = stringList(record.readFiles);
  const modifiedFiles = stringList(record.modifiedFiles);
  if (readFiles) view.readFiles = readFiles;
  if (modifiedFiles) view.modifiedFiles = modifiedFiles;
  return record;
}

/** `details.stage` of a stage summary (src/branch/stage.ts), when well formed. */
export function stageOf(details: unknown): ConversationEntry['stage'] {
  const stage = (details as { stage?: { fromEntryId?: unknown; leafId?: unknown; label?: unknown } } | null | undefined)?.stage;
  if (typeof stage?.fromEntryId !== 'string' || typeof stage.leafId !== 'string') return undefined;
  return { fromEntryId: stage.fromEntryId, leafId: stage.leafId, ...(typeof stage.label === 'string' && stage.label ? { label: stage.label } : {}) };
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

export function assistantView(entry: SessionEntry, message: Extract<AgentMessage, { role: 'assistant' }>, label: string | undefined, problems: ViewProblems): ConversationEntry {
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
/** A line that is only an opening or closing tag (`<handoff-context>`): the model's framing, not for the reader. */
const TAG_LINE = /^[ \t]*<\/?[a-z][\w-]*>[ \t]*$/gim;

export function customMessageView(entry: SessionEntry, content: Content, customType: string, label: string | undefined, problems: ViewProblems): ConversationEntry {
  const shown = typeof content === 'string' ? content.replace(TAG_LINE, '').trim() : content;
  const view = baseView(entry, 'custom_message', contentText(shown), textBlocks(shown, problems), label);
  view.customType = customType;
  return view;
}
