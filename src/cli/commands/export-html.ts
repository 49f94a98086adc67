// The HTML form of an exported conversation: message text is Markdown and is rendered as such (raw HTML
// in it stays text: markdown-it with html off), tool calls and results stay preformatted. markdown-it is
// loaded on the first HTML export only (a file of its own under dist/vendor/, scripts/build.mjs): activating
// the extension does not read it.
import type MarkdownItModule from 'markdown-it';
import type { Section } from './export';

type Markdown = InstanceType<typeof MarkdownItModule>;
let markdown: Promise<Markdown> | undefined;

function markdownRenderer(): Promise<Markdown> {
  markdown ??= import('markdown-it').then((module) => {
    const Constructor = (module as { default?: typeof MarkdownItModule }).default ?? (module as unknown as typeof MarkdownItModule);
    return new Constructor({ html: false, linkify: true });
  });
  return markdown;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sectionHtml(section: Section, markdown: Markdown): string {
  const parts = [`<section><h2>${escapeHtml(section.title)}</h2>`];
  if (section.text !== undefined) parts.push(`<div class="text">${markdown.render(section.text)}</div>`);
  if (section.code !== undefined) parts.push(`<pre>${escapeHtml(section.code)}</pre>`);
  parts.push('</section>');
  return parts.join('');
}

export async function renderHtml(title: string, sections: readonly Section[]): Promise<string> {
  const markdown = await markdownRenderer();
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:50rem;margin:auto;padding:0 1rem}section h2{font-size:1rem;color:#555}code{background:#f4f4f4;padding:0 .2em}pre{background:#f4f4f4;padding:.5rem;overflow:auto}</style>',
    '</head><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    sections.map((section) => sectionHtml(section, markdown)).join('\n'),
    '</body></html>',
    '',
  ].join('\n');
}
