// The body of a user message: its Markdown text, then the files it mentioned as chips (their contents went
// to the model; see webview/mention-blocks.ts) and how many images it carried.
import type { UserItem } from '../../src/protocol';
import { el } from '../dom';
import { setMarkdown } from '../markdown';
import { splitFileBlocks } from '../mention-blocks';

export function userBody(item: UserItem): HTMLElement[] {
  const { text, files } = splitFileBlocks(item.text);
  const body = el('div', { class: 'markdown' });
  setMarkdown(body, text + (item.images ? `\n\n*(${item.images} image${item.images === 1 ? '' : 's'})*` : ''));
  if (files.length === 0) return [body];
  const chips = el('ul', { class: 'mention-chips', 'aria-label': 'Files sent with this message' }, ...files.map((f) => el('li', { class: 'mention-chip', title: f }, `@${f}`)));
  return [body, chips];
}

/** The text the user wrote (what Edit starts from), without the mentioned files' contents. */
export function userText(item: UserItem): string {
  return splitFileBlocks(item.text).text;
}
