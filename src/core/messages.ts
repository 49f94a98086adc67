// The message model shared by the session store, the providers, the agent loop and compaction.
// Shapes follow pi's `AgentMessage` family exactly, so a message written by pi reads here unchanged
// and a message written by Arbor reads in pi. Unknown extra fields are allowed everywhere and must be
// preserved by anyone who copies a message (spread, never rebuild field by field).

import type { NativeCompactionPayload } from './native-compaction';

export interface TextContent {
  type: 'text';
  text: string;
  [extra: string]: unknown;
}

export interface ImageContent {
  type: 'image';
  /** base64 data, without a data: prefix */
  data: string;
  mimeType: string;
  [extra: string]: unknown;
}

export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
  /** Provider signature needed to send thinking back (Anthropic); opaque. */
  thinkingSignature?: string;
  [extra: string]: unknown;
}

export interface ToolCall {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  [extra: string]: unknown;
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: UsageCost;
  /** pi 1.5: reasoning tokens, already counted in `output` */
  reasoning?: number;
}

export interface UserMessage {
  role: 'user';
  content: string | (TextContent | ImageContent)[];
  /** ms since epoch */
  timestamp: number;
  [extra: string]: unknown;
}

export interface AssistantMessage {
  role: 'assistant';
  content: (TextContent | ThinkingContent | ToolCall)[];
  /** wire API used, e.g. "openai-completions", "anthropic-messages" */
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
  [extra: string]: unknown;
}

export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
  /** set by tool-output pruning (omp compatible) */
  prunedAt?: number;
  [extra: string]: unknown;
}

/** A shell command the user ran directly (pi's `!cmd`). */
export interface BashExecutionMessage {
  role: 'bashExecution';
  command: string;
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp: number;
  [extra: string]: unknown;
}

/** Extension/hook-provided message (pi v3 `custom`, v2 `hookMessage`). Sent to the LLM as a user message. */
export interface CustomMessage {
  role: 'custom';
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
  [extra: string]: unknown;
}

/**
 * pi 1.5: instructions in force from here on, stored as an ordinary message entry. Sent to OpenAI as a
 * system message in place and to Anthropic as user text in place (src/llm/convert-*.ts).
 */
export interface SystemMessage {
  role: 'system';
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: unknown[];
  toolsRemoved?: unknown[];
  timestamp: number;
  [extra: string]: unknown;
}

/** In-memory only: built from a `branch_summary` entry while building context. */
export interface BranchSummaryMessage {
  role: 'branchSummary';
  summary: string;
  fromId: string;
  timestamp: number;
}

/** In-memory only: built from the latest `compaction` entry on the path while building context. */
export interface CompactionSummaryMessage {
  role: 'compactionSummary';
  summary: string;
  tokensBefore: number;
  timestamp: number;
  /** a provider's own compacted context from the entry's preserveData (src/core/native-compaction.ts) */
  native?: NativeCompactionPayload[];
}

export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage
  | SystemMessage;

/** What a provider accepts: the three roles every LLM API understands. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage | SystemMessage;

export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/**
 * A user message's content as pi writes it: the text alone, or the text block followed by the images,
 * or the images alone (a prompt of only a pasted screenshot: blank text adds no empty text block).
 */
export function userContent(text: string, images: readonly ImageContent[]): UserMessage['content'] {
  if (images.length === 0) return text;
  const parts = images.map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }));
  return text.trim() === '' ? parts : [{ type: 'text', text }, ...parts];
}

/** What names a message's images where only text fits (tree lines, search, titles): `[image]`, `[2 images]`. */
export function imagesMarker(count: number): string {
  return count === 1 ? '[image]' : `[${count} images]`;
}

/** The text of user content, or for content of images alone their marker (a message is never nameless). */
export function userContentText(content: string | readonly { type: string; text?: unknown }[]): string {
  const text = contentText(content);
  if (text.trim() !== '' || typeof content === 'string') return text;
  const images = content.filter((b) => b.type === 'image').length;
  return images === 0 ? text : imagesMarker(images);
}

/** The text of a system message (its text blocks joined). */
export function systemMessageText(message: SystemMessage): string {
  return typeof message.content === 'string' ? message.content : contentText(message.content);
}

export function contentText(content: string | readonly { type: string; text?: unknown }[]): string {
  if (typeof content === 'string') return content;
  let out = '';
  for (const block of content) if (block.type === 'text' && typeof block.text === 'string') out += block.text;
  return out;
}
