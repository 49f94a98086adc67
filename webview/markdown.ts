// Markdown in the page: the HTML of ./markdown-render.ts for messages and summaries; a message over the
// guard's limits (markdown-guard.ts) is shown as plain text with "Show as Markdown" instead.
import { renderMarkdown } from './markdown-render';
import { el } from './dom';
import { markdownGuard } from './markdown-guard';
import { t } from './l10n';

/** Texts the user chose to see as Markdown although over the limits (kept across re-renders). */
const shownAnyway = new Set<string>();

/**
 * Renders into a new element (the string is markdown-it output with html:false, so it holds no raw
 * HTML); a text over the guard's limits becomes plain text under a note with "Show as Markdown".
 */
export function setMarkdown(target: HTMLElement, text: string): void {
  if (shownAnyway.has(text) || markdownGuard(text) === undefined) {
    target.innerHTML = renderMarkdown(text);
    return;
  }
  target.classList.add('markdown-guarded');
  const show = el('button', { type: 'button', class: 'link-btn', 'data-action': 'showMarkdown' }, t('Show as Markdown'));
  target.append(el('div', { class: 'markdown-guard-note' }, el('span', {}, t('Shown as plain text: too large to format as Markdown quickly.')), ' ', show), el('pre', { class: 'plain-markdown' }, text));
}

/** "Show as Markdown": renders the guarded text in place, however long it takes, and keeps it so. */
export function showAsMarkdown(target: HTMLElement, text: string): void {
  shownAnyway.add(text);
  target.classList.remove('markdown-guarded');
  target.innerHTML = renderMarkdown(text);
}

export { renderMarkdown };
