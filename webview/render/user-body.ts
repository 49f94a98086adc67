// The body of a user message: its Markdown text, then the files it mentioned as chips (their contents went
// to the model; see webview/mention-blocks.ts) and the images it carried as thumbnails (render/image-view.ts).
import type { UserItem } from '../../src/protocol';
import { el } from '../dom';
import { setMarkdown } from '../markdown';
import { splitFileBlocks } from '../mention-blocks';
import { userImagesView } from './image-view';
import { t } from '../l10n';

export function userBody(item: UserItem): HTMLElement[] {
  const { text, files } = splitFileBlocks(item.text);
  const images = item.images ? userImagesView(item.images) : [];
  // a message of images alone (a pasted screenshot sent without words) has no empty text paragraph
  const body = text.trim() === '' && images.length > 0 ? [] : [markdownBody(text)];
  if (files.length === 0) return [...body, ...images];
  const chips = el('ul', { class: 'mention-chips', 'aria-label': t('Files sent with this message') }, ...files.map((f) => el('li', { class: 'mention-chip', title: f }, `@${f}`)));
  return [...body, chips, ...images];
}

function markdownBody(text: string): HTMLElement {
  const body = el('div', { class: 'markdown' });
  setMarkdown(body, text);
  return body;
}

/** The text the user wrote (what Edit starts from), without the mentioned files' contents. */
export function userText(item: UserItem): string {
  return splitFileBlocks(item.text).text;
}
