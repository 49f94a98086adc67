// Building blocks of the chat's view of an entry (ConversationEntry, one variant per kind of item), shared by
// the entry kinds (src/present/kinds/): every loose field goes through normalize-view.ts, repairs are noted
// in `problems`. Views are plain literals with optional fields assigned only when present (no spreads:
// opening a long session builds tens of thousands of these, and spreads make them slow and large).
import { contentText, type AgentMessage } from '../core/messages';
import { stripFileOperations } from '../compaction/file-ops';
import { compactionReasonSchema, userImages, type CompactionReasonName, type UserImages } from '../protocol';
import type { SessionEntry } from '../session/entries';
import { optionalText, readableText, toolArguments, toolCallIdText, usageView, type ViewProblems } from './normalize-view';
import type { AssistantView, BranchSummaryView, ConversationKind, CustomMessageView, ToolCallView, ViewBlock, ViewOfKind } from './view-types';

export type LooseBlock = { type: string; [k: string]: unknown };
export type Content = string | readonly LooseBlock[];

/** A view's own fields: what the kind builds (the entry's id, parent, time and label are added here). */
export type ViewFields<K extends ConversationKind> = Omit<ViewOfKind<K>, 'id' | 'parentId' | 'timestamp' | 'label'>;

/** `fields` (a fresh literal) completed with the entry's id, parent, time and label. */
export function viewOf<K extends ConversationKind>(entry: SessionEntry, label: string | undefined, fields: ViewFields<K>): ViewOfKind<K> {
  const view = fields as ViewFields<K> & { id: string; parentId: string | null; timestamp: string; label?: string };
  view.id = entry.id;
  view.parentId = entry.parentId;
  view.timestamp = entry.timestamp;
  if (label) view.label = label;
  return view as unknown as ViewOfKind<K>;
}

/** A one-line event on the path (model and thinking-level changes). */
export function noticeView(entry: SessionEntry, text: string, label: string | undefined): ViewOfKind<'notice'> {
  return viewOf<'notice'>(entry, label, { kind: 'notice', level: 'info', text });
}

/** Text blocks (repaired when unreadable) and image blocks of message content. */
function contentBlocks(content: Content, problems: ViewProblems): LooseBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: LooseBlock[] = [];
  for (const block of content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: readableText(block.text, 'text', problems) });
    else if (block.type === 'image') blocks.push({ type: 'image', mimeType: String(block.mimeType ?? ''), data: typeof block.data === 'string' ? block.data : '' });
  }
  return blocks;
}

/** The images of message content the chat shows (src/protocol/images.ts); unreadable text blocks are noted. */
export function contentImages(content: Content, problems: ViewProblems): UserImages | undefined {
  return userImages(contentBlocks(content, problems));
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** An entry's `details` as a record ({} when it is none). */
export function detailsRecord(details: unknown): Record<string, unknown> {
  return (typeof details === 'object' && details !== null ? details : {}) as Record<string, unknown>;
}

/** The file lists a summary's details carry ([] when absent or malformed). */
export function fileLists(details: Record<string, unknown>): { readFiles: string[]; modifiedFiles: string[] } {
  return { readFiles: stringList(details.readFiles) ?? [], modifiedFiles: stringList(details.modifiedFiles) ?? [] };
}

/** A summary's Markdown as the marker shows it: its file blocks go when the view carries the lists. */
export function shownSummary(summary: string, lists: { readFiles: string[]; modifiedFiles: string[] }): string {
  return lists.readFiles.length + lists.modifiedFiles.length > 0 ? stripFileOperations(summary) : summary;
}

const REASONS: ReadonlySet<string> = new Set(compactionReasonSchema.options);

/** A compaction's reason, when it is one the chat names. */
export function compactionReason(value: unknown): CompactionReasonName | undefined {
  return typeof value === 'string' && REASONS.has(value) ? (value as CompactionReasonName) : undefined;
}

/** `details.stage` of a stage summary (src/branch/stage.ts), when well formed. */
export function stageOf(details: unknown): BranchSummaryView['stage'] {
  const stage = (details as { stage?: { fromEntryId?: unknown; leafId?: unknown; label?: unknown } } | null | undefined)?.stage;
  if (typeof stage?.fromEntryId !== 'string' || typeof stage.leafId !== 'string') return undefined;
  return typeof stage.label === 'string' && stage.label ? { leafId: stage.leafId, label: stage.label } : { leafId: stage.leafId };
}

function toolCallOf(block: LooseBlock, problems: ViewProblems): ToolCallView {
  return { id: toolCallIdText(block.id, problems), name: readableText(block.name, 'tool name', problems), args: toolArguments(block.arguments, problems) };
}

function assistantBlocks(content: readonly LooseBlock[], problems: ViewProblems): { blocks: ViewBlock[]; toolCalls: ToolCallView[] } {
  const blocks: ViewBlock[] = [];
  const toolCalls: ToolCallView[] = [];
  for (const block of content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: readableText(block.text, 'text', problems) });
    else if (block.type === 'thinking') blocks.push({ type: 'thinking', thinking: readableText(block.thinking, 'thinking', problems) });
    else if (block.type === 'toolCall') {
      const call = toolCallOf(block, problems);
      blocks.push({ type: 'toolCall', id: call.id, name: call.name, arguments: call.args });
      toolCalls.push({ id: call.id, name: call.name, args: call.args });
    }
  }
  return { blocks, toolCalls };
}

const STOP_REASONS: ReadonlySet<string> = new Set<AssistantView['stopReason']>(['stop', 'length', 'toolUse', 'error', 'aborted']);

export function assistantView(entry: SessionEntry, message: Extract<AgentMessage, { role: 'assistant' }>, label: string | undefined, problems: ViewProblems): AssistantView {
  const { blocks, toolCalls } = assistantBlocks(message.content as readonly LooseBlock[], problems);
  const stop = optionalText(message.stopReason, 'stopReason', problems);
  const view = viewOf<'assistant'>(entry, label, { kind: 'assistant', blocks, toolCalls, stopReason: stop !== undefined && STOP_REASONS.has(stop) ? (stop as AssistantView['stopReason']) : 'stop' });
  if (message.model) view.model = message.model;
  if (message.provider) view.provider = message.provider;
  const errorMessage = optionalText(message.errorMessage, 'errorMessage', problems);
  if (errorMessage) view.errorMessage = errorMessage;
  const usage = usageView(message.usage, problems);
  if (usage) {
    view.tokens = usage.input + usage.output;
    view.cost = usage.cost;
  }
  return view;
}

/** A line that is only an opening or closing tag (`<handoff-context>`): the model's framing, not for the reader. */
const TAG_LINE = /^[ \t]*<\/?[a-z][\w-]*>[ \t]*$/gim;

/** An extension's message, whether stored as a `custom` role message or a `custom_message` entry. */
export function customMessageView(entry: SessionEntry, content: Content, customType: string, label: string | undefined, problems: ViewProblems): CustomMessageView {
  const shown = typeof content === 'string' ? content.replace(TAG_LINE, '').trim() : content;
  contentBlocks(shown, problems); // notes unreadable text blocks, as for any message
  return viewOf<'custom_message'>(entry, label, { kind: 'custom_message', customType: customType ?? '', text: contentText(shown) });
}
