// Which files the summarized work read and changed (docs/pi-compatibility.md "What a compaction summarizes"). The lists travel with every
// compaction (entry.details) so they accumulate across compactions, and are appended to the summary as
// <read-files>/<modified-files> blocks. These tags are a stored format that later compactions parse
// and replace, so they are built here rather than in a prompt template.
import type { AgentMessage } from '../core/messages';
import { historyTraitsOf, namedPaths, type HistoryToolTraits } from '../core/tool-history';

export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/**
 * Adds the files an assistant message's tool calls read and changed, as each tool's traits say
 * (`traitsOf`: the live list's, else the built-in defaults; src/core/tool-history.ts).
 */
export function addFileOpsFromMessage(
  ops: FileOperations,
  message: AgentMessage,
  traitsOf: (toolName: string) => HistoryToolTraits | undefined = historyTraitsOf,
): void {
  if (message.role !== 'assistant') return;
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue;
    const traits = traitsOf(block.name);
    const args = (block.arguments ?? {}) as Record<string, unknown>;
    for (const path of pathsOf(traits?.reads, args)) ops.read.add(path);
    for (const path of pathsOf(traits?.writes, args)) ops.written.add(path);
  }
}

/** The paths a trait names for a call; none when it fails (a stored call's arguments may be anything). */
function pathsOf(paths: HistoryToolTraits['reads'], args: Record<string, unknown>): string[] {
  return namedPaths(() => paths?.(args));
}

/**
 * Seeds the sets from a previous summary's details. Only Arbor/pi-generated details are trusted:
 * a hook-provided summary may store anything in `details`.
 */
export function addFileOpsFromDetails(ops: FileOperations, details: unknown, fromHook: boolean | undefined): void {
  if (fromHook || details === null || typeof details !== 'object') return;
  const { readFiles, modifiedFiles } = details as Record<string, unknown>;
  if (Array.isArray(readFiles)) for (const p of readFiles) if (typeof p === 'string') ops.read.add(p);
  if (Array.isArray(modifiedFiles)) for (const p of modifiedFiles) if (typeof p === 'string') ops.edited.add(p);
}

/** modified = written ∪ edited; read-only files exclude anything modified; both sorted. */
export function computeFileLists(ops: FileOperations): FileLists {
  const modified = new Set([...ops.written, ...ops.edited]);
  const readFiles = [...ops.read].filter((p) => !modified.has(p)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The blocks appended to a summary, starting with a blank line; '' when there are no files. */
export function formatFileOperations(lists: FileLists): string {
  const blocks: string[] = [];
  if (lists.readFiles.length > 0) blocks.push(`<read-files>\n${lists.readFiles.join('\n')}\n</read-files>`);
  if (lists.modifiedFiles.length > 0) blocks.push(`<modified-files>\n${lists.modifiedFiles.join('\n')}\n</modified-files>`);
  return blocks.length > 0 ? `\n\n${blocks.join('\n\n')}` : '';
}

const FILE_BLOCK = /\s*<(read-files|modified-files)>[\s\S]*?<\/\1>/g;

/** Removes existing file blocks, so a summary never carries two stale copies. */
export function stripFileOperations(summary: string): string {
  return summary.replace(FILE_BLOCK, '').trimEnd();
}

/** Replaces (or adds) the file blocks of a summary. */
export function upsertFileOperations(summary: string, lists: FileLists): string {
  return stripFileOperations(summary) + formatFileOperations(lists);
}
