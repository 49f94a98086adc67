// Markdown rendering for messages and summaries: markdown-it with raw HTML off (model output is never
// trusted as HTML), links linkified and opened by VS Code, fenced code wrapped with a language label and
// Copy / Insert buttons (handled by delegation in actions.ts through data-action attributes). A message
// over the guard's limits (markdown-guard.ts) is shown as plain text with "Show as Markdown" instead.
import MarkdownIt from 'markdown-it';
import type { MarkdownWords } from '../src/protocol';
import { el } from './dom';
import { markdownGuard } from './markdown-guard';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx]!;
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  const code = md.utils.escapeHtml(token.content);
  const lang = md.utils.escapeHtml(language || 'text');
  return (
    `<div class="code-block" data-lang="${lang}">` +
    `<div class="code-head"><span class="code-lang">${lang}</span>` +
    `<span class="code-actions">` +
    `<button type="button" class="link-btn" data-action="copyCode" title="Copy the code">Copy</button>` +
    `<button type="button" class="link-btn" data-action="insertCode" title="Insert the code at the cursor in the active editor">Insert</button>` +
    `</span></div>` +
    `<pre><code>${code}</code></pre></div>`
  );
};

// Links: keep them real anchors (VS Code opens http(s) links from webviews externally) but never
// javascript: or data: — markdown-it's validateLink already refuses those; add rel for safety.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** The guard's words until the host sends its localized ones (ChatState.markdownWords). */
let words: MarkdownWords = {
  plainText: 'Shown as plain text: too large to format as Markdown quickly.',
  showAsMarkdown: 'Show as Markdown',
};

export function setMarkdownWords(localized: MarkdownWords | undefined): void {
  if (localized) words = localized;
}

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
  const show = el('button', { type: 'button', class: 'link-btn', 'data-action': 'showMarkdown' }, words.showAsMarkdown);
  target.append(el('div', { class: 'markdown-guard-note' }, el('span', {}, words.plainText), ' ', show), el('pre', { class: 'plain-markdown' }, text));
}

/** "Show as Markdown": renders the guarded text in place, however long it takes, and keeps it so. */
export function showAsMarkdown(target: HTMLElement, text: string): void {
  shownAnyway.add(text);
  target.classList.remove('markdown-guarded');
  target.innerHTML = renderMarkdown(text);
}
