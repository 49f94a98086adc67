// How one session entry looks in the Session Tree and in pickers: a one-line title, a codicon name and
// the full text (tooltip, Copy). No vscode import, so it can be reused by QuickPicks and tests alike.
import { messageText } from '../../cli/describe';
import type { SessionEntry } from '../../session/entries';

export interface EntryPresentation {
  /** short kind shown when there is no text, and in tooltips: "You", "Assistant", … */
  kind: string;
  /** first line of the entry's text (trimmed, at most 100 characters) */
  title: string;
  /** codicon id */
  icon: string;
  /** the entry's whole text, for Copy and tooltips */
  text: string;
}

const MAX_TITLE = 100;

export function firstLine(text: string, max = MAX_TITLE): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function messagePresentation(entry: SessionEntry & { type: 'message' }): Omit<EntryPresentation, 'title'> {
  const message = entry.message;
  const text = messageText(message);
  switch (message.role) {
    case 'user':
      return { kind: 'You', icon: 'account', text };
    case 'assistant': {
      const failed = message.stopReason === 'error' || message.stopReason === 'aborted';
      return { kind: failed ? `Assistant (${message.stopReason})` : 'Assistant', icon: failed ? 'warning' : 'hubot', text };
    }
    case 'toolResult':
      return { kind: `Tool result: ${message.toolName}`, icon: message.isError ? 'error' : 'tools', text };
    case 'bashExecution':
      return { kind: 'Shell command', icon: 'terminal', text };
    case 'custom':
      return { kind: `Extension message (${message.customType})`, icon: 'extensions', text };
    default:
      return { kind: 'Message', icon: 'comment', text };
  }
}

function otherPresentation(entry: SessionEntry): Omit<EntryPresentation, 'title'> {
  switch (entry.type) {
    case 'compaction':
      return { kind: `Compaction summary (${entry.tokensBefore} tokens before)`, icon: 'fold', text: entry.summary };
    case 'branch_summary':
      return { kind: 'Branch summary', icon: 'git-merge', text: entry.summary };
    case 'model_change':
      return { kind: 'Model', icon: 'server-environment', text: `${entry.provider}/${entry.modelId}` };
    case 'thinking_level_change':
      return { kind: 'Thinking level', icon: 'lightbulb', text: entry.thinkingLevel };
    case 'label':
      return { kind: 'Label', icon: 'tag', text: entry.label === undefined ? '(label removed)' : String(entry.label) };
    case 'session_info':
      return { kind: 'Session name', icon: 'info', text: entry.name ?? '(name cleared)' };
    case 'custom_message': {
      const content = entry.content;
      const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
      return { kind: `Extension message (${entry.customType})`, icon: 'extensions', text };
    }
    case 'custom':
      return { kind: `Extension data (${entry.customType})`, icon: 'symbol-misc', text: '' };
    default: {
      // InvalidEntry stand-ins (malformed lines) and entry types Arbor does not know.
      const loose = entry as { type: string; problem?: unknown };
      if (loose.type === 'invalid_entry') return { kind: 'Unreadable entry', icon: 'warning', text: String(loose.problem ?? '') };
      return { kind: loose.type, icon: 'question', text: '' };
    }
  }
}

export function presentEntry(entry: SessionEntry): EntryPresentation {
  const base = entry.type === 'message' ? messagePresentation(entry) : otherPresentation(entry);
  const line = firstLine(base.text);
  const title = entry.type === 'compaction' || entry.type === 'branch_summary' ? base.kind : line || base.kind;
  return { ...base, title };
}
