// How one session entry looks in the Session Tree and in pickers: a one-line title, a codicon name and
// the full text (tooltip, Copy). No vscode import, so it can be reused by QuickPicks and tests alike.
import { filesChangedLine } from '../../app/view-model';
import { messageText } from '../../cli/describe';
import type { SessionEntry } from '../../session/entries';
import { modelChangeText, thinkingLevelText } from '../../session/entry-fields';
import { firstLine as firstLineOf } from '../../core/text';

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

/** `vscode.l10n.t`-shaped: a message with {0}-style placeholders and its arguments. */
export type Localize = (message: string, ...args: (string | number)[]) => string;

const formatEnglish: Localize = (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)] ?? ''));
let t: Localize = formatEnglish;

/**
 * This module stays free of `vscode` so pickers and tests can reuse it; the extension plugs in
 * `vscode.l10n.t` at activation so the kinds read in the user's language.
 */
export function useLocalizer(localize: Localize): void {
  t = localize;
}

export function firstLine(text: string, max = MAX_TITLE): string {
  return firstLineOf(text, max);
}

function messagePresentation(entry: SessionEntry & { type: 'message' }): Omit<EntryPresentation, 'title'> {
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

function otherPresentation(entry: SessionEntry): Omit<EntryPresentation, 'title'> {
  switch (entry.type) {
    case 'compaction':
      return { kind: t('Compaction summary ({0} tokens before)', entry.tokensBefore), icon: 'fold', text: entry.summary };
    case 'branch_summary':
      return { kind: t('Branch summary'), icon: 'git-merge', text: entry.summary };
    case 'model_change':
      return { kind: t('Model'), icon: 'server-environment', text: modelChangeText(entry) };
    case 'thinking_level_change':
      return { kind: t('Thinking level'), icon: 'lightbulb', text: thinkingLevelText(entry) };
    case 'label':
      return { kind: t('Label'), icon: 'tag', text: entry.label === undefined ? t('(label removed)') : String(entry.label) };
    case 'session_info':
      return { kind: t('Session name'), icon: 'info', text: entry.name ?? t('(name cleared)') };
    case 'custom_message': {
      const content = entry.content;
      const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
      return { kind: t('Extension message ({0})', entry.customType), icon: 'extensions', text };
    }
    case 'custom': {
      const files = filesChangedLine(entry);
      if (files) return { kind: t('Files'), icon: 'files', text: files };
      return { kind: t('Extension data ({0})', entry.customType), icon: 'symbol-misc', text: '' };
    }
    default: {
      // InvalidEntry stand-ins (malformed lines) and entry types Arbor does not know.
      const loose = entry as { type: string; problem?: unknown };
      if (loose.type === 'invalid_entry') return { kind: t('Unreadable entry'), icon: 'warning', text: String(loose.problem ?? '') };
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
