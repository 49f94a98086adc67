// `export FILE --format md|html [--leaf ID] [--out FILE]`: the root→leaf conversation as a document.
// The whole path is exported (compaction entries appear as sections; nothing before them is hidden).
import { writeFile } from 'node:fs/promises';
import type { AgentMessage } from '../../core/messages';
import type { SessionEntry } from '../../session/entries';
import { bashExecutionText } from '../../session/convert';
import type { SessionStore } from '../../session/store';
import { finiteCount, optionalText, readableText, toolArguments, type ViewProblems } from '../../app/normalize-view';
import { sessionDisplayTitle } from '../../core/text';
import { renderHtml } from './export-html';
import { CliError, entryLines, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand, type CliIO } from '../command';
import { modelChangeText, thinkingLevelText } from '../../session/entry-fields';

export interface Section {
  title: string;
  /** plain text paragraphs */
  text?: string;
  /** preformatted blocks */
  code?: string;
}

function assistantSections(message: Extract<AgentMessage, { role: 'assistant' }>, problems: ViewProblems): Section[] {
  const sections: Section[] = [];
  for (const block of message.content as readonly { type: string; [k: string]: unknown }[]) {
    if (block.type === 'text') sections.push({ title: `Assistant (${message.model})`, text: readableText(block.text, 'text', problems) });
    else if (block.type === 'thinking') sections.push({ title: 'Thinking', text: readableText(block.thinking, 'thinking', problems) });
    else if (block.type === 'toolCall') {
      const name = readableText(block.name, 'tool name', problems);
      sections.push({ title: `Tool call: ${name}`, code: JSON.stringify(toolArguments(block.arguments, problems), null, 2) });
    }
  }
  const error = optionalText(message.errorMessage, 'errorMessage', problems);
  if (error) sections.push({ title: 'Error', text: error });
  return sections;
}

function messageSections(message: AgentMessage, problems: ViewProblems): Section[] {
  switch (message.role) {
    case 'user':
      return [{ title: 'User', ...contentParts(message.content, problems) }];
    case 'custom':
      return [{ title: `Extension message (${message.customType})`, ...contentParts(message.content, problems) }];
    case 'assistant':
      return assistantSections(message, problems);
    case 'toolResult':
      return [{ title: `Tool result: ${message.toolName}${message.isError ? ' (error)' : ''}`, code: contentParts(message.content, problems).text }];
    case 'bashExecution':
      return [{ title: 'Shell command', code: bashExecutionText(message) }];
    default:
      return [];
  }
}

function contentParts(content: string | readonly { type: string; text?: unknown }[], problems: ViewProblems): { text: string } {
  if (typeof content === 'string') return { text: content };
  return {
    text: content.map((b) => (b.type === 'text' ? readableText(b.text, 'text', problems) : `[${b.type}]`)).join('\n'),
  };
}

function entrySections(entry: SessionEntry, problems: ViewProblems): Section[] {
  switch (entry.type) {
    case 'message':
      return messageSections(entry.message, problems);
    case 'compaction':
      return [{ title: `Compaction summary (${finiteCount(entry.tokensBefore, 'tokensBefore', problems)} tokens before)`, text: entry.summary }];
    case 'branch_summary':
      return entry.summary ? [{ title: 'Branch summary', text: entry.summary }] : [];
    case 'custom_message':
      return [{ title: `Extension message (${entry.customType})`, ...contentParts(entry.content, problems) }];
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

/** An entry the export could show only partly, and what was repaired (normalize-view's rules). */
export interface ExportProblem {
  entryId: string;
  problems: string[];
}

/** The document's title: the session's name, else its first user message as plain text (as the chat header). */
function exportTitle(name: string | undefined, branch: readonly SessionEntry[]): string {
  const first = branch.find((e) => e.type === 'message' && e.message.role === 'user');
  const text = first?.type === 'message' && first.message.role === 'user' ? contentParts(first.message.content, []).text : undefined;
  return sessionDisplayTitle(name, text) ?? 'Arbor session';
}

export function exportSession(store: Pick<SessionStore, 'getBranch' | 'getSessionName'>, leafId: string | null, format: 'md' | 'html', report: ExportProblem[] = []): string {
  const branch = store.getBranch(leafId);
  const title = exportTitle(store.getSessionName(), branch);
  const sections = branch.flatMap((entry) => {
    const problems: ViewProblems = [];
    const shown = entrySections(entry, problems);
    if (problems.length > 0) report.push({ entryId: entry.id, problems });
    return shown;
  });
  return format === 'md' ? renderMarkdown(title, sections) : renderHtml(title, sections);
}

/** Warns, per line of the file, about entries the export showed only partly. */
async function reportPartlyShown(file: string, report: readonly ExportProblem[], io: CliIO): Promise<void> {
  if (report.length === 0) return;
  const lines = await entryLines(file);
  for (const { entryId, problems } of report) {
    const line = lines.get(entryId);
    io.err(`warning: ${file}${line ? `:${line}` : ''}: partly-shown: entry ${entryId}: ${problems.join('; ')}; shown as unreadable`);
  }
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
    const report: ExportProblem[] = [];
    const text = exportSession(store, resolveLeafOption(store, values.leaf), format, report);
    await reportPartlyShown(positionals[0]!, report, io);
    if (values.out) await writeFile(values.out, text);
    else io.out(text);
    return 0;
  },
};
