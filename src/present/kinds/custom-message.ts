// `custom_message` entries: an extension's message, sent to the LLM as user text and shown in the chat
// unless `display` is false.
import type { CustomMessageEntry } from '../../session/entries';
import type { EntryKind } from './kind';
import { customMessageView } from '../entry-views';
import { contentFirstLine, markdownFirstLine } from '../summary-text';
import { summaryTitle } from '../../core/summary-title';
import { exportContentText } from './message';

function lookText(content: CustomMessageEntry['content']): string {
  return typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
}

/** How much of a message whose first line is a wrapping tag (a handoff document's) is read for its name. */
const TITLE_HEAD_CHARS = 4000;

/** The first line, or for a document wrapped in a tag (`<handoff-context>`) what the document says (its goal). */
function summaryLine(entry: CustomMessageEntry): string {
  const line = markdownFirstLine(contentFirstLine(entry.content));
  return /^<[a-z][\w-]*>$/i.test(line) ? summaryTitle(lookText(entry.content).slice(0, TITLE_HEAD_CHARS)) : line;
}

export const customMessageKind: EntryKind<CustomMessageEntry> = {
  isShown: (entry) => entry.display !== false,
  view: (entry, label, problems) => customMessageView(entry, entry.content, entry.customType, label, problems),
  treeKind: () => 'custom_message',
  summaryLine,
  look: (entry, t) => ({ kind: t('Extension message ({0})', entry.customType), icon: 'extensions', text: lookText(entry.content) }),
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.customType,
  sections: (entry, problems) => [{ title: `Extension message (${entry.customType})`, text: exportContentText(entry.content, problems) }],
};
