// `custom_message` entries: an extension's message, sent to the LLM as user text and shown in the chat
// unless `display` is false.
import type { CustomMessage } from '../../core/messages';
import type { CustomMessageEntry } from '../entries';
import type { EntryKind } from './kind';
import { customMessageView } from '../../app/entry-views';
import { contentFirstLine, markdownFirstLine } from '../../app/summary-text';
import { searchContentText } from '../search-text';
import { exportContentText } from './message';

function message(entry: CustomMessageEntry): CustomMessage {
  return {
    role: 'custom',
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: Date.parse(entry.timestamp),
  };
}

function lookText(content: CustomMessageEntry['content']): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
}

export const customMessageKind: EntryKind<CustomMessageEntry> = {
  defersBody: true,
  message,
  isShown: (entry) => entry.display !== false,
  view: (entry, label, problems) => customMessageView(entry, entry.content, entry.customType, label, problems),
  treeKind: () => 'custom_message',
  summaryLine: (entry) => markdownFirstLine(contentFirstLine(entry.content)),
  look: (entry, t) => ({ kind: t('Extension message ({0})', entry.customType), icon: 'extensions', text: lookText(entry.content) }),
  searchable: (entry) => (entry.display === false ? undefined : { kind: 'custom', text: searchContentText(entry.content) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.customType,
  sections: (entry, problems) => [{ title: `Extension message (${entry.customType})`, text: exportContentText(entry.content, problems) }],
};
