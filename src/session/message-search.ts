// What session search matches in a `message` entry, by role, read from the raw parsed line (search does
// not validate entries): the words the user typed or read in the chat, never a signature; Markdown as
// plain lines (what a search result shows).
import { imagesMarker } from '../core/messages';
import { plainMarkdown } from '../core/plain-line';
import { argumentText, join, searchContentText, str, type Searchable } from './search-text';

export function messageSearchable(entry: Record<string, unknown>): Searchable | undefined {
  const value = entry.message;
  if (!value || typeof value !== 'object') return undefined;
  const message = value as Record<string, unknown>;
  switch (message.role) {
    case 'user':
      return { kind: 'user', text: userSearchText(message.content) };
    case 'assistant':
      return { kind: 'assistant', text: assistantSearchText(message) };
    case 'toolResult':
      return { kind: 'toolResult', text: searchContentText(message.content), ...(typeof message.toolName === 'string' ? { toolName: message.toolName } : {}) };
    case 'bashExecution':
      return { kind: 'bash', text: join([str(message.command), str(message.output)]) };
    case 'custom':
      return message.display === false ? undefined : { kind: 'custom', text: plainMarkdown(searchContentText(message.content)) };
    default:
      return undefined; // system and omp's roles: nothing the user typed or read in the chat
  }
}

/** A user message's text blocks, or for images alone their marker (search does not validate `content`). */
function userSearchText(content: unknown): string {
  const text = searchContentText(content);
  if (text.trim() !== '' || !Array.isArray(content)) return text;
  const images = content.filter((b: unknown) => (b as { type?: unknown } | null)?.type === 'image').length;
  return images === 0 ? text : imagesMarker(images);
}

function assistantSearchText(message: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(message.content)) {
    for (const block of message.content as Record<string, unknown>[]) {
      if (!block || typeof block !== 'object') continue;
      if (block.type === 'text') parts.push(plainMarkdown(str(block.text)));
      else if (block.type === 'thinking') parts.push(str(block.thinking)); // never the signature
      else if (block.type === 'toolCall') parts.push(join([str(block.name), argumentText(block.arguments)], ' '));
    }
  }
  parts.push(str(message.errorMessage));
  return join(parts);
}
