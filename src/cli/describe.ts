// Short human descriptions of entries, shared by `tree`, `stats` and `export`.
import { contentText, type AgentMessage } from '../core/messages';
import type { SessionEntry } from '../session/entries';
import { modelChangeText, thinkingLevelText } from '../session/entry-fields';

/** `user`, `assistant`, `toolResult`, … for messages; the entry type otherwise. */
export function entryKind(entry: SessionEntry): string {
  if (entry.type === 'message') return (entry.message as { role?: string })?.role ?? 'message';
  return entry.type;
}

export function messageText(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
    case 'custom':
      return contentText(message.content);
    case 'assistant': {
      const parts: string[] = [];
      for (const block of message.content) {
        if (block.type === 'text') parts.push(block.text);
        else if (block.type === 'toolCall') parts.push(`${block.name}(${JSON.stringify(block.arguments)})`);
      }
      return parts.join(' ');
    }
    case 'toolResult':
      return contentText(message.content);
    case 'bashExecution':
      return `$ ${message.command}`;
    case 'compactionSummary':
    case 'branchSummary':
      return message.summary;
    default:
      return '';
  }
}

export function entryPreview(entry: SessionEntry, max = 60): string {
  let text: string;
  switch (entry.type) {
    case 'message':
      text = messageText(entry.message);
      break;
    case 'compaction':
    case 'branch_summary':
      text = entry.summary;
      break;
    case 'model_change':
      text = modelChangeText(entry);
      break;
    case 'thinking_level_change':
      text = thinkingLevelText(entry);
      break;
    case 'label':
      text = `${entry.targetId} = ${entry.label ?? '(cleared)'}`;
      break;
    case 'session_info':
      text = entry.name ?? '(name cleared)';
      break;
    case 'custom':
    case 'custom_message':
      text = entry.customType;
      break;
    default:
      text = '';
  }
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
