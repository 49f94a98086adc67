// Markdown to HTML for messages and summaries: markdown-it with raw HTML off (model output is never trusted
// as HTML), links linkified and opened by VS Code, fenced code wrapped with a language label and Copy /
// Insert buttons (handled by delegation in actions.ts through data-action attributes), task items as
// disabled checkboxes. No DOM here: ./markdown.ts puts the HTML into the page, behind the size guard.
import MarkdownIt from 'markdown-it';
import { t } from './l10n';
import type { WebviewString } from '../src/protocol/webview-strings';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

/** A localized word, escaped for the HTML it goes into. */
function text(message: WebviewString): string {
  return md.utils.escapeHtml(t(message));
}

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx]!;
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  const code = md.utils.escapeHtml(token.content);
  const lang = md.utils.escapeHtml(language || 'text');
  return (
    `<div class="code-block" data-lang="${lang}">` +
    `<div class="code-head"><span class="code-lang">${lang}</span>` +
    `<span class="code-actions">` +
    `<button type="button" class="link-btn" data-action="copyCode" title="${text('Copy the code')}">${text('Copy')}</button>` +
    `<button type="button" class="link-btn" data-action="insertCode" title="${text('Insert the code at the cursor in the active editor')}">${text('Insert')}</button>` +
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

// Task list items ("- [x] done", "- [ ] open", what summaries are asked to write) show a disabled checkbox
// instead of the raw brackets. The box is markup this file writes, never the model's (raw HTML stays off).
const TASK_MARK = /^\[([ xX])\]\s+/;
md.core.ruler.after('inline', 'task-boxes', (state) => {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const mark = first?.type === 'text' ? TASK_MARK.exec(first.content) : null;
    if (!first || !mark) continue;
    const done = mark[1] !== ' ';
    first.content = first.content.slice(mark[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="task-box" disabled${done ? ' checked' : ''} aria-label="${done ? text('Done') : text('Not done')}"> `;
    inline.children!.unshift(box);
    tokens[i - 2]!.attrJoin('class', 'task-item');
  }
});

export function renderMarkdown(text: string): string {
  return md.render(text);
}
