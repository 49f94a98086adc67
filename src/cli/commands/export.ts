// `export FILE --format md|html|jsonl [--leaf ID] [--out FILE]`: the root→leaf conversation as a document
// (the whole path: compaction entries appear as sections; nothing before them is hidden), or with jsonl
// the branch as a standalone session file, written as Fork writes one.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { exportBranchSession } from '../../session/branch-session';
import type { SessionEntry } from '../../session/entries';
import type { SessionStore } from '../../session/store';
import { kindOf, type ExportSection } from '../../present/kinds/index';
import { exportContentText } from '../../present/kinds/message';
import type { ViewProblems } from '../../present/normalize-view';
import { sessionDisplayTitle } from '../../core/text';
import { renderHtml } from './export-html';
import { CliError, entryLines, openForCli, parseCommandArgs, resolveLeafOption, type CliCommand, type CliIO } from '../command';

export type Section = ExportSection;

function contentParts(content: string | readonly { type: string; text?: unknown }[], problems: ViewProblems): { text: string } {
  return { text: exportContentText(content, problems) };
}

function entrySections(entry: SessionEntry, problems: ViewProblems): Section[] {
  return kindOf(entry).sections(entry, problems);
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

/** `--format jsonl`: the branch as a standalone session pi 1.5 reads (the code path of Fork, branch-session.ts). */
async function exportJsonl(store: SessionStore, leaf: string | undefined, out: string | undefined, io: CliIO): Promise<number> {
  if (!out) throw new CliError('--format jsonl needs --out PATH');
  if (resolve(out) === resolve(store.file)) throw new CliError('--out must not be the session being exported');
  const leafId = resolveLeafOption(store, leaf);
  if (leafId === null) throw new CliError('the session has no entries to export');
  const header = await exportBranchSession(store, leafId, out);
  io.err(`wrote session ${header.id} (${store.getBranch(leafId).length} entries on the branch to ${leafId}) to ${out}`);
  return 0;
}

export const exportCommand: CliCommand = {
  usage: 'export FILE --format md|html|jsonl [--leaf ID] [--out PATH]',
  summary: 'export the root→leaf conversation as Markdown or HTML, or the branch as a session file (jsonl)',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(
      args,
      { format: { type: 'string' }, leaf: { type: 'string' }, out: { type: 'string' } },
      ['FILE'],
    );
    const format = values.format;
    if (format !== 'md' && format !== 'html' && format !== 'jsonl') throw new CliError('--format must be md, html or jsonl');
    const store = await openForCli(positionals[0]!, io);
    if (format === 'jsonl') return exportJsonl(store, values.leaf, values.out, io);
    const report: ExportProblem[] = [];
    const text = exportSession(store, resolveLeafOption(store, values.leaf), format, report);
    await reportPartlyShown(positionals[0]!, report, io);
    if (values.out) await writeFile(values.out, text);
    else io.out(text);
    return 0;
  },
};
