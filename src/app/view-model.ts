// Serialisable view models of a session for the UIs (chat webview, Session Tree): the conversation on the
// active path and the nodes of the whole tree. Plain data only (no class instances, no functions), so a
// view model can be posted to a webview as is.
import { contentText, type AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';

export type ConversationKind = 'user' | 'assistant' | 'toolResult' | 'compaction' | 'branch_summary' | 'custom_message' | 'bash' | 'notice';

export type ViewBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'toolCall'; id: string; name: string; args: Record<string, unknown> }
  | { type: 'image'; mimeType: string };

export interface ToolCallView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** the entry holding the result, once there is one on the path */
  resultEntryId?: string;
  isError?: boolean;
}

export interface ConversationEntry {
  id: string;
  parentId: string | null;
  kind: ConversationKind;
  timestamp: string;
  /** plain text (text blocks joined; the summary for compaction/branch summary) */
  text: string;
  blocks: ViewBlock[];
  label?: string;
  // assistant
  model?: string;
  provider?: string;
  stopReason?: string;
  errorMessage?: string;
  toolCalls?: ToolCallView[];
  usage?: { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number; cost: number };
  // toolResult
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  /** the assistant entry whose call this answers */
  callEntryId?: string;
  // compaction
  tokensBefore?: number;
  firstKeptEntryId?: string;
  shortSummary?: string;
  readFiles?: string[];
  modifiedFiles?: string[];
  reason?: string;
  fromHook?: boolean;
  // branch summary
  fromId?: string;
  // custom message
  customType?: string;
  // bash (a command the user ran, pi's bashExecution)
  command?: string;
  exitCode?: number | null;
  cancelled?: boolean;
}

export type TreeNodeKind =
  | Exclude<ConversationKind, 'notice'>
  | 'model_change'
  | 'thinking_level_change'
  | 'label'
  | 'custom'
  | 'session_info'
  | 'other';

export interface TreeNodeView {
  id: string;
  parentId: string | null;
  kind: TreeNodeKind;
  /** first line of the entry's text (bounded), for lists and hovers */
  firstLine: string;
  label?: string;
  isOnActivePath: boolean;
  isLeaf: boolean;
  childCount: number;
  timestamp: string;
}

const FIRST_LINE_MAX = 120;

export function firstLine(text: string): string {
  const trimmed = text.trimStart();
  const end = trimmed.indexOf('\n');
  const line = (end === -1 ? trimmed : trimmed.slice(0, end)).trim();
  return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX - 1)}…` : line;
}

function messageKind(message: AgentMessage): TreeNodeKind {
  switch (message.role) {
    case 'user':
    case 'assistant':
    case 'toolResult':
      return message.role;
    case 'bashExecution':
      return 'bash';
    case 'custom':
      return 'custom_message';
    default:
      return 'other';
  }
}

export function entryKind(entry: SessionEntry): TreeNodeKind {
  switch (entry.type) {
    case 'message':
      return messageKind(entry.message);
    case 'compaction':
    case 'branch_summary':
    case 'custom_message':
    case 'model_change':
    case 'thinking_level_change':
    case 'label':
    case 'custom':
    case 'session_info':
      return entry.type;
    default:
      return 'other';
  }
}

/** A one-line description of any entry. */
export function entrySummaryLine(entry: SessionEntry): string {
  switch (entry.type) {
    case 'message': {
      const message = entry.message;
      if (message.role === 'user' || message.role === 'custom') return firstLine(contentText(message.content));
      if (message.role === 'assistant') {
        const text = firstLine(message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''));
        if (text) return text;
        const tools = message.content.filter((b) => b.type === 'toolCall').map((b) => (b as { name: string }).name);
        if (tools.length > 0) return `→ ${tools.join(', ')}`;
        return message.stopReason === 'error' ? firstLine(message.errorMessage ?? 'error') : '';
      }
      if (message.role === 'toolResult') return firstLine(`${message.toolName}: ${contentText(message.content)}`);
      if (message.role === 'bashExecution') return firstLine(`$ ${message.command}`);
      return '';
    }
    case 'compaction':
      return firstLine(entry.shortSummary ?? entry.summary);
    case 'branch_summary':
      return firstLine(entry.summary);
    case 'custom_message':
      return firstLine(contentText(entry.content));
    case 'model_change':
      return `${entry.provider}/${entry.modelId}`;
    case 'thinking_level_change':
      return `thinking: ${entry.thinkingLevel}`;
    case 'label':
      return entry.label ? `label: ${entry.label}` : 'label cleared';
    case 'session_info':
      return entry.name ? `name: ${entry.name}` : 'name cleared';
    case 'custom':
      return entry.customType;
    default:
      return (entry as { type: string }).type;
  }
}

function textBlocks(content: string | readonly { type: string; [k: string]: unknown }[]): ViewBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: ViewBlock[] = [];
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'image') blocks.push({ type: 'image', mimeType: String(block.mimeType ?? '') });
  }
  return blocks;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/**
 * The conversation view of one entry, or undefined for entries the chat does not show (model/thinking
 * changes, labels, custom data, hidden custom messages).
 */
export function conversationEntry(entry: SessionEntry, label?: string): ConversationEntry | undefined {
  const base = { id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp, ...(label ? { label } : {}) };
  switch (entry.type) {
    case 'message': {
      const message = entry.message;
      if (message.role === 'user') {
        return { ...base, kind: 'user', text: contentText(message.content), blocks: textBlocks(message.content) };
      }
      if (message.role === 'assistant') {
        const blocks: ViewBlock[] = [];
        const toolCalls: ToolCallView[] = [];
        let text = '';
        for (const block of message.content) {
          if (block.type === 'text') {
            blocks.push({ type: 'text', text: block.text });
            text += block.text;
          } else if (block.type === 'thinking') blocks.push({ type: 'thinking', text: block.thinking });
          else if (block.type === 'toolCall') {
            blocks.push({ type: 'toolCall', id: block.id, name: block.name, args: block.arguments });
            toolCalls.push({ id: block.id, name: block.name, args: block.arguments });
          }
        }
        const usage = message.usage;
        return {
          ...base,
          kind: 'assistant',
          text,
          blocks,
          model: message.model,
          provider: message.provider,
          stopReason: message.stopReason,
          ...(message.errorMessage ? { errorMessage: message.errorMessage } : {}),
          toolCalls,
          ...(usage
            ? {
                usage: {
                  input: usage.input ?? 0,
                  output: usage.output ?? 0,
                  cacheRead: usage.cacheRead ?? 0,
                  cacheWrite: usage.cacheWrite ?? 0,
                  totalTokens: usage.totalTokens ?? 0,
                  cost: usage.cost?.total ?? 0,
                },
              }
            : {}),
        };
      }
      if (message.role === 'toolResult') {
        return {
          ...base,
          kind: 'toolResult',
          text: contentText(message.content),
          blocks: textBlocks(message.content),
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          isError: message.isError === true,
        };
      }
      if (message.role === 'bashExecution') {
        return {
          ...base,
          kind: 'bash',
          text: message.output,
          blocks: [{ type: 'text', text: message.output }],
          command: message.command,
          exitCode: message.exitCode ?? null,
          cancelled: message.cancelled === true,
        };
      }
      if (message.role === 'custom') {
        if (message.display === false) return undefined;
        return { ...base, kind: 'custom_message', text: contentText(message.content), blocks: textBlocks(message.content), customType: message.customType };
      }
      return undefined;
    }
    case 'compaction': {
      const details = (entry.details ?? {}) as Record<string, unknown>;
      const readFiles = stringList(details.readFiles);
      const modifiedFiles = stringList(details.modifiedFiles);
      return {
        ...base,
        kind: 'compaction',
        text: entry.summary,
        blocks: [{ type: 'text', text: entry.summary }],
        tokensBefore: entry.tokensBefore,
        firstKeptEntryId: entry.firstKeptEntryId,
        ...(entry.shortSummary ? { shortSummary: entry.shortSummary } : {}),
        ...(readFiles ? { readFiles } : {}),
        ...(modifiedFiles ? { modifiedFiles } : {}),
        ...(typeof details.reason === 'string' ? { reason: details.reason } : {}),
        ...(entry.fromHook ? { fromHook: true } : {}),
      };
    }
    case 'branch_summary': {
      const details = (entry.details ?? {}) as Record<string, unknown>;
      const readFiles = stringList(details.readFiles);
      const modifiedFiles = stringList(details.modifiedFiles);
      return {
        ...base,
        kind: 'branch_summary',
        text: entry.summary,
        blocks: [{ type: 'text', text: entry.summary }],
        fromId: entry.fromId,
        ...(readFiles ? { readFiles } : {}),
        ...(modifiedFiles ? { modifiedFiles } : {}),
        ...(entry.fromHook ? { fromHook: true } : {}),
      };
    }
    case 'model_change':
    case 'thinking_level_change': {
      const text = entry.type === 'model_change' ? `Model: ${entry.provider}/${entry.modelId}` : `Thinking level: ${entry.thinkingLevel}`;
      return { ...base, kind: 'notice', text, blocks: [{ type: 'text', text }] };
    }
    case 'custom_message':
      if (entry.display === false) return undefined;
      return { ...base, kind: 'custom_message', text: contentText(entry.content), blocks: textBlocks(entry.content), customType: entry.customType };
    default:
      return undefined;
  }
}

/** The conversation of a path (root → leaf), with tool calls paired to their results. */
export function conversationOfPath(path: readonly SessionEntry[], labelOf: (id: string) => string | undefined): ConversationEntry[] {
  const out: ConversationEntry[] = [];
  const calls = new Map<string, { entry: ConversationEntry; call: ToolCallView }>();
  for (const entry of path) {
    const view = conversationEntry(entry, labelOf(entry.id));
    if (!view) continue;
    pairToolCalls(view, calls);
    out.push(view);
  }
  return out;
}

/** Links a tool result to its call (both views are updated). `calls` carries pending calls along a path. */
export function pairToolCalls(view: ConversationEntry, calls: Map<string, { entry: ConversationEntry; call: ToolCallView }>): void {
  if (view.kind === 'assistant') for (const call of view.toolCalls ?? []) calls.set(call.id, { entry: view, call });
  else if (view.kind === 'toolResult' && view.toolCallId) {
    const pending = calls.get(view.toolCallId);
    if (pending) {
      pending.call.resultEntryId = view.id;
      pending.call.isError = view.isError === true;
      view.callEntryId = pending.entry.id;
      calls.delete(view.toolCallId);
    }
  }
}
