// A conversation view as plain text, for what shows a view outside the chat: the Markdown of the messages
// a compaction summarised ("Show the original messages"), and tests that read what a view says. One case
// per view kind, so a new kind fails to compile here until it says what its text is.
import { formatFileOperations } from '../compaction/file-ops';
import type { ConversationEntry } from './view-types';

/** What a view says: its text, a reply's text blocks, a summary with its file blocks, a command's output. */
export function viewText(view: ConversationEntry): string {
  switch (view.kind) {
    case 'user':
    case 'toolResult':
    case 'custom_message':
    case 'notice':
      return view.text;
    case 'assistant':
      return view.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
    case 'compaction':
    case 'branch_summary':
      // the view's summary lost its file blocks to the lists (entry-views.ts shownSummary): they go back
      return view.summary + formatFileOperations(view);
    case 'bash':
      return view.output;
  }
}

/** A reply without text says which tools it called: `→ name {args}` per call. */
function toolCallLines(view: ConversationEntry): string {
  if (view.kind !== 'assistant') return '';
  return view.blocks.map((block) => (block.type === 'toolCall' ? `→ ${block.name} ${JSON.stringify(block.arguments)}` : '')).join('\n');
}

/** The Markdown document of the messages a compaction summarised (its path before the first kept entry). */
export function originalMessagesMarkdown(compactionId: string, views: readonly ConversationEntry[]): string {
  const lines: string[] = [`# Messages before compaction ${compactionId}`, ''];
  for (const view of views) {
    const heading = view.kind === 'toolResult' && view.toolName ? `${view.kind} (${view.toolName})` : view.kind;
    lines.push(`## ${heading}`, '', viewText(view) || toolCallLines(view), '');
  }
  return lines.join('\n');
}
