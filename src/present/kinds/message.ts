// `message` entries: an AgentMessage as it was sent or received. Its role decides everything else (user,
// assistant, toolResult, bashExecution, custom, pi 1.5's system, omp's own roles); roles Arbor does not
// show are named 'other' in the trees and have no chat view (their context conversion is convert.ts's).
import { contentText, imagesMarker, userContentText, type AgentMessage } from '../../core/messages';
import type { MessageEntry } from '../../session/entries';
import type { EntryKind, ExportSection, Localize, EntryLook } from './kind';
import type { ConversationEntry, ToolResultView } from '../view-types';
import type { TreeNodeKind } from '../../protocol';
import { optionalText, readableText, toolArguments, toolCallIdText, type ViewProblems } from '../normalize-view';
import { assistantView, contentImages, customMessageView, viewOf } from '../entry-views';
import { contentFirstLine, firstLine, markdownFirstLine, type TextContent } from '../summary-text';
import { argumentText, join, searchContentText, str, type Searchable } from '../../session/search-text';
import { bashExecutionText } from '../../session/convert';
import { toolCallLine } from '../../core/plain-line';

type Role = AgentMessage['role'];
const SHOWN_ROLES: ReadonlySet<string> = new Set<Role>(['user', 'assistant', 'toolResult', 'bashExecution']);

function isShown(entry: MessageEntry): boolean {
  const message = entry.message;
  if (message.role === 'custom') return message.display !== false;
  return SHOWN_ROLES.has(message.role);
}

/** pi's result for a call stopped before or while it ran (its agent loop's `createErrorToolResult`). */
const PI_ABORTED_TEXT = 'Operation aborted';

/**
 * What a tool result says about a call that did not run or finish: Arbor's own details
 * (src/agent/approval.ts, tool-calls.ts), or pi 1.6's `Operation aborted` error result.
 */
function toolStatusOf(message: Extract<AgentMessage, { role: 'toolResult' }>): 'denied' | 'skipped' | 'aborted' | undefined {
  const details = message.details;
  const record = details && typeof details === 'object' ? (details as Record<string, unknown>) : {};
  if (record.denied === true) return 'denied';
  if (record.skipped === true) return 'skipped';
  return message.isError === true && contentText(message.content) === PI_ABORTED_TEXT ? 'aborted' : undefined;
}

/** pi 1.6's note that the model got a placeholder for the result's image (it reads no images). */
function imageNotSentTo(details: unknown): string | undefined {
  const model = details && typeof details === 'object' ? (details as Record<string, unknown>).imageUnsupportedByModel : undefined;
  return typeof model === 'string' && model ? model : undefined;
}

/** An MCP result's server, tool and resource links, as src/mcp/results.ts stores them in `details.mcp`. */
function mcpOf(details: unknown): { server: string; tool: string; links: { uri: string; name?: string }[] } | undefined {
  const mcp = details && typeof details === 'object' ? (details as Record<string, unknown>).mcp : undefined;
  if (!mcp || typeof mcp !== 'object') return undefined;
  const { server, tool, links } = mcp as Record<string, unknown>;
  if (typeof server !== 'string' || typeof tool !== 'string') return undefined;
  const list = Array.isArray(links) ? links.filter((l): l is { uri: string; name?: unknown } => !!l && typeof (l as { uri?: unknown }).uri === 'string') : [];
  return { server, tool, links: list.slice(0, 50).map((l) => (typeof l.name === 'string' ? { uri: l.uri, name: l.name } : { uri: l.uri })) };
}

function toolResultView(entry: MessageEntry, message: Extract<AgentMessage, { role: 'toolResult' }>, label: string | undefined, problems: ViewProblems): ToolResultView {
  const images = contentImages(message.content, problems);
  const toolCallId = toolCallIdText(message.toolCallId, problems);
  const view = viewOf<'toolResult'>(entry, label, { kind: 'toolResult', toolCallId, toolName: message.toolName ?? '', text: contentText(message.content), isError: message.isError === true });
  const status = toolStatusOf(message);
  if (status) view.status = status;
  const withoutImage = imageNotSentTo(message.details);
  if (withoutImage) view.imageNotSentTo = withoutImage;
  if (images) view.images = images;
  const mcp = mcpOf(message.details);
  if (mcp) view.mcp = mcp;
  return view;
}

function view(entry: MessageEntry, label: string | undefined, problems: ViewProblems): ConversationEntry | undefined {
  const message = entry.message;
  switch (message.role) {
    case 'user': {
      const images = contentImages(message.content, problems);
      const view = viewOf<'user'>(entry, label, { kind: 'user', text: contentText(message.content) });
      if (images) view.images = images;
      return view;
    }
    case 'assistant':
      return assistantView(entry, message, label, problems);
    case 'toolResult':
      return toolResultView(entry, message, label, problems);
    case 'bashExecution': {
      const exitCode = typeof message.exitCode === 'number' && Number.isInteger(message.exitCode) ? message.exitCode : null;
      return viewOf<'bash'>(entry, label, { kind: 'bash', command: message.command ?? '', output: message.output, exitCode, cancelled: message.cancelled === true });
    }
    case 'custom':
      return message.display === false ? undefined : customMessageView(entry, message.content, message.customType, label, problems);
    default:
      return undefined; // not shown (isShown says so): system and omp's roles
  }
}

function treeKind(entry: MessageEntry): TreeNodeKind {
  const role = entry.message.role;
  if (role === 'user' || role === 'assistant' || role === 'toolResult') return role;
  if (role === 'bashExecution') return 'bash';
  return role === 'custom' ? 'custom_message' : 'other';
}

function summaryLine(entry: MessageEntry): string {
  const message = entry.message;
  if (message.role === 'custom') return markdownFirstLine(contentFirstLine(message.content));
  if (message.role === 'user') return markdownFirstLine(contentFirstLine(message.content)) || userContentText(message.content);
  if (message.role === 'assistant') {
    const text = markdownFirstLine(contentFirstLine(message.content as TextContent));
    if (text) return text;
    const tools = message.content.filter((b) => b.type === 'toolCall').map((b) => toolCallLine((b as { name: string }).name, (b as { arguments?: unknown }).arguments));
    if (tools.length > 0) return tools.join(', ');
    return message.stopReason === 'error' ? firstLine(message.errorMessage ?? 'error') : '';
  }
  if (message.role === 'toolResult') return contentFirstLine(message.content, `${message.toolName}: `);
  if (message.role === 'bashExecution') return firstLine(`$ ${message.command}`);
  return '';
}

/** A message's whole text for the CLI and the Session Tree (tool calls as `name(args)`). */
export function messageText(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
      return userContentText(message.content);
    case 'custom':
    case 'toolResult':
      return contentText(message.content);
    case 'assistant': {
      const parts: string[] = [];
      for (const block of message.content) {
        if (block.type === 'text') parts.push(block.text);
        else if (block.type === 'toolCall') parts.push(`${block.name}(${JSON.stringify(block.arguments)})`);
      }
      return parts.join(' ');
    }
    case 'bashExecution':
      return `$ ${message.command}`;
    case 'compactionSummary':
    case 'branchSummary':
      return message.summary;
    default:
      return ''; // system and omp's roles have no text of their own to show
  }
}

function look(entry: MessageEntry, t: Localize): EntryLook {
  const message = entry.message;
  const text = messageText(message);
  switch (message.role) {
    case 'user':
      return { kind: t('You'), icon: 'account', text };
    case 'assistant': {
      const failed = message.stopReason === 'error' || message.stopReason === 'aborted';
      return { kind: failed ? t('Assistant ({0})', message.stopReason) : t('Assistant'), icon: failed ? 'warning' : 'hubot', text };
    }
    case 'toolResult':
      return { kind: t('Tool result: {0}', message.toolName), icon: message.isError ? 'error' : 'tools', text };
    case 'bashExecution':
      return { kind: t('Shell command'), icon: 'terminal', text };
    case 'custom':
      return { kind: t('Extension message ({0})', message.customType), icon: 'extensions', text };
    default:
      return { kind: t('Message'), icon: 'comment', text };
  }
}

function assistantSections(message: Extract<AgentMessage, { role: 'assistant' }>, problems: ViewProblems): ExportSection[] {
  const sections: ExportSection[] = [];
  for (const block of message.content as readonly { type: string; [k: string]: unknown }[]) {
    if (block.type === 'text') sections.push({ title: `Assistant (${message.model})`, text: readableText(block.text, 'text', problems) });
    else if (block.type === 'thinking') sections.push({ title: 'Thinking', text: readableText(block.thinking, 'thinking', problems) });
    else if (block.type === 'toolCall') {
      const name = readableText(block.name, 'tool name', problems);
      sections.push({ title: `Tool call: ${name}`, code: JSON.stringify(toolArguments(block.arguments, problems), null, 2) });
    }
  }
  const error = optionalText(message.errorMessage, 'errorMessage', problems);
  if (error) sections.push({ title: 'Error', text: error });
  return sections;
}

/** Content as export text: text blocks (repaired when unreadable), other blocks as `[type]`. */
export function exportContentText(content: string | readonly { type: string; text?: unknown }[], problems: ViewProblems): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? readableText(b.text, 'text', problems) : `[${b.type}]`)).join('\n');
}

function sections(entry: MessageEntry, problems: ViewProblems): ExportSection[] {
  const message = entry.message;
  switch (message.role) {
    case 'user':
      return [{ title: 'User', text: exportContentText(message.content, problems) }];
    case 'custom':
      return [{ title: `Extension message (${message.customType})`, text: exportContentText(message.content, problems) }];
    case 'assistant':
      return assistantSections(message, problems);
    case 'toolResult':
      return [{ title: `Tool result: ${message.toolName}${message.isError ? ' (error)' : ''}`, code: exportContentText(message.content, problems) }];
    case 'bashExecution':
      return [{ title: 'Shell command', code: bashExecutionText(message) }];
    default:
      return []; // system and omp's roles are not part of the exported conversation
  }
}

export const messageKind: EntryKind<MessageEntry> = {
  isShown,
  view,
  treeKind,
  summaryLine,
  look,
  cliKind: (entry) => (entry.message as { role?: string })?.role ?? 'message',
  cliText: (entry) => messageText(entry.message),
  sections,
};
