// `export FILE --format md|html [--leaf ID] [--out FILE]`: the root→leaf conversation as a document.
// The whole path is exported (compaction entries appear as sections; nothing before them is hidden).
import { writeFile } from 'node:fs/promises';
import type { AgentMessage } from '../../core/messages';
import type { SessionEntry } from '../../session/entries';
import { bashExecutionText } from '../../session/convert';
import type { SessionStore } from '../../session/store';
import { modelChangeText, thinkingLevelText } from '../../session/entry-fields';
import { CliError, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

interface Section {
  title: string;
  /** plain text paragraphs */
  text?: string;
  /** preformatted blocks */
  code?: string;
}

function messageSections(message: AgentMessage): Section[] {
  switch (message.role) {
    case 'user':
      return [{ title: 'User', ...contentParts(message.content) }];
    case 'custom':
      return [{ title: `Extension message (${message.customType})`, ...contentParts(message.content) }];
    case 'assistant': {
      const sections: Section[] = [];
      for (const block of message.content) {
        if (block.type === 'text') sections.push({ title: `Assistant (${message.model})`, text: block.text });
        else if (block.type === 'thinking') sections.push({ title: 'Thinking', text: block.thinking });
        else if (block.type === 'toolCall') {
          sections.push({ title: `Tool call: ${block.name}`, code: JSON.stringify(block.arguments, null, 2) });
        }
      }
      if (message.errorMessage) sections.push({ title: 'Error', text: message.errorMessage });
      return sections;
    }
    case 'toolResult':
      return [{ title: `Tool result: ${message.toolName}${message.isError ? ' (error)' : ''}`, code: contentParts(message.content).text ?? '' }];
    case 'bashExecution':
      return [{ title: 'Shell command', code: bashExecutionText(message) }];
    default:
      return [];
  }
}

function contentParts(content: string | readonly { type: string; text?: unknown }[]): { text: string } {
  if (typeof content === 'string') return { text: content };
  return {
    text: content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`)).join('\n'),
  };
}

function entrySections(entry: SessionEntry): Section[] {
  switch (entry.type) {
    case 'message':
      return messageSections(entry.message);
    case 'compaction':
      return [{ title: `Compaction summary (${entry.tokensBefore} tokens before)`, text: entry.summary }];
    case 'branch_summary':
      return entry.summary ? [{ title: 'Branch summary', text: entry.summary }] : [];
    case 'custom_message':
      return [{ title: `Extension message (${entry.customType})`, ...contentParts(entry.content) }];
    case 'model_change':
      return [{ title: 'Model', text: modelChangeText(entry) }];
    case 'thinking_level_change':
      return [{ title: 'Thinking level', text: thinkingLevelText(entry) }];
    default:
      return [];
  }
}

function fence(code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}\n${code}\n${ticks}`;
}

export function renderMarkdown(title: string, sections: readonly Section[]): string {
  const out = [`# ${title}`, ''];
  for (const section of sections) {
    out.push(`## ${section.title}`, '');
    if (section.text !== undefined) out.push(section.text, '');
    if (section.code !== undefined) out.push(fence(section.code), '');
  }
  return out.join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderHtml(title: string, sections: readonly Section[]): string {
  const body = sections
    .map((s) => {
      const parts = [`<section><h2>${escapeHtml(s.title)}</h2>`];
      if (s.text !== undefined) parts.push(`<div class="text">${escapeHtml(s.text)}</div>`);
      if (s.code !== undefined) parts.push(`<pre>${escapeHtml(s.code)}</pre>`);
      parts.push('</section>');
      return parts.join('');
    })
    .join('\n');
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:50rem;margin:auto}.text{white-space:pre-wrap}pre{background:#f4f4f4;padding:.5rem;overflow:auto}</style>',
    '</head><body>',
    `<h1>${escapeHtml(title)}</h1>`,
    body,
    '</body></html>',
    '',
  ].join('\n');
}

export function exportSession(store: SessionStore, leafId: string | null, format: 'md' | 'html'): string {
  const title = store.getSessionName() ?? `Session ${store.header.id}`;
  const sections = store.getBranch(leafId).flatMap(entrySections);
  return format === 'md' ? renderMarkdown(title, sections) : renderHtml(title, sections);
}

export const exportCommand: CliCommand = {
  usage: 'export FILE --format md|html [--leaf ID] [--out PATH]',
  summary: 'export the root→leaf conversation as Markdown or HTML',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(
      args,
      { format: { type: 'string' }, leaf: { type: 'string' }, out: { type: 'string' } },
      ['FILE'],
    );
    const format = values.format;
    if (format !== 'md' && format !== 'html') throw new CliError('--format must be md or html');
    const store = await openForCli(positionals[0]!, io);
    const text = exportSession(store, resolveLeafOption(store, values.leaf), format);
    if (values.out) await writeFile(values.out, text);
    else io.out(text);
    return 0;
  },
};
