// `custom_message` entries: an extension's message, sent to the LLM as user text and shown in the chat
// unless `display` is false.
import type { CustomMessageEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { customMessageView } from '../entry-views';
import { contentFirstLine, markdownFirstLine } from '../summary-text';
import { exportContentText } from './message';

function lookText(content: CustomMessageEntry['content']): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
}

export const customMessageKind: EntryKind<CustomMessageEntry> = {
  isShown: (entry) => entry.display !== false,
  view: (entry, label, problems) => customMessageView(entry, entry.content, entry.customType, label, problems),
  treeKind: () => 'custom_message',
  summaryLine: (entry) => markdownFirstLine(contentFirstLine(entry.content)),
  look: (entry, t) => ({ kind: t('Extension message ({0})', entry.customType), icon: 'extensions', text: lookText(entry.content) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.customType,
  sections: (entry, problems) => [{ title: `Extension message (${entry.customType})`, text: exportContentText(entry.content, problems) }],
};
