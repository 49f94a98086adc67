// `edit`: replaces exactly one occurrence of oldText. Matching happens on LF-normalised text without
// the BOM, so the model can copy from `read`; the file's CRLF endings and BOM are restored on write.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { resolveInWorkspace } from './paths';
import { cutLine, formatBytes, looksBinary } from './text';
import { ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool } from './types';
import { lineNumber } from './read';

export const editArgs = z.object({
  path: z.string().describe('File to change, relative to the workspace root'),
  oldText: z.string().min(1, 'oldText must not be empty').describe('Exact text to replace; must occur exactly once'),
  newText: z.string().describe('Replacement text (empty to delete)'),
});
export type EditArgs = z.infer<typeof editArgs>;

export interface EditDetails {
  path: string;
  before: string;
  after: string;
  /** 1-based line where the replacement starts */
  line: number;
  lineEnding: 'lf' | 'crlf';
  bom: boolean;
}

const BOM = '\uFEFF';
const MAX_EDIT_FILE_BYTES = 20 * 1024 * 1024;

export function detectLineEnding(text: string): 'lf' | 'crlf' {
  const crlf = text.split('\r\n').length - 1;
  if (crlf === 0) return 'lf';
  const lf = text.split('\n').length - 1 - crlf;
  return crlf >= lf ? 'crlf' : 'lf';
}

function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function countOccurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
    at.push(i);
    if (at.length > 1000) break;
  }
  return at;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Similarity of two short strings in [0, 1] (Dice coefficient over character bigrams). */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) grams.set(a.slice(i, i + 2), (grams.get(a.slice(i, i + 2)) ?? 0) + 1);
  let hits = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      hits++;
      grams.set(g, n - 1);
    }
  }
  return (2 * hits) / (a.length + b.length - 2);
}

function excerpt(lines: string[], from: number, count: number): string {
  const start = Math.max(0, from - 1);
  const end = Math.min(lines.length, start + count + 2);
  return lines
    .slice(Math.max(0, start - 1), end)
    .map((l, i) => `${lineNumber(Math.max(0, start - 1) + i + 1)}\t${cutLine(l, 300)}`)
    .join('\n');
}

/** Explains a failed match: whitespace-only differences, or the most similar region of the file. */
export function closestHint(content: string, oldText: string): string {
  const lines = content.split('\n');
  const oldLines = oldText.split('\n');
  const span = oldLines.length;
  const target = squash(oldText);
  if (target.length > 0 && lines.length * span < 2_000_000) {
    for (let i = 0; i + span <= lines.length; i++) {
      if (squash(lines.slice(i, i + span).join('\n')) === target) {
        return `The text matches at line ${i + 1} only if whitespace is ignored; indentation or spacing differ. The file has:\n${excerpt(lines, i + 1, span)}`;
      }
    }
  }
  const probe = oldLines.map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  if (probe.length === 0) return 'oldText contains only whitespace; include some of the actual code or text.';
  let best = -1;
  let bestScore = 0;
  const limit = Math.min(lines.length, 200_000);
  for (let i = 0; i < limit; i++) {
    const line = lines[i].trim();
    if (line.length === 0 || Math.abs(line.length - probe.length) > Math.max(probe.length, 40)) continue;
    const score = line === probe ? 1 : similarity(line.slice(0, 400), probe.slice(0, 400));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0 || bestScore < 0.5) return 'Nothing similar was found; read the file again to get its current content.';
  return `The closest match for its first line is at line ${best + 1}:\n${excerpt(lines, best + 1, span)}\nRead the file again if it may have changed, and copy oldText exactly.`;
}

export function createEditTool(): AgentTool<EditArgs> {
  return defineTool<EditArgs>({
    name: 'edit',
    description: renderPrompt('system/tools/edit'),
    argsSchema: editArgs,
    mutating: true,
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path);
      const info = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ToolError(`File not found: ${target.display}. Use write to create a new file.`);
        throw error;
      });
      if (!info.isFile()) throw new ToolError(`${target.display} is not a regular file.`);
      if (info.size > MAX_EDIT_FILE_BYTES) {
        throw new ToolError(`${target.display} is ${formatBytes(info.size)}; edit handles files up to ${formatBytes(MAX_EDIT_FILE_BYTES)}.`);
      }
      const raw = await readFile(target.absolute);
      if (looksBinary(raw)) throw new ToolError(`${target.display} looks like a binary file; edit only changes text files.`);
      const original = raw.toString('utf8');
      const bom = original.startsWith(BOM);
      const body = bom ? original.slice(1) : original;
      const ending = detectLineEnding(body);
      const content = toLf(body);
      const oldText = toLf(args.oldText.startsWith(BOM) ? args.oldText.slice(1) : args.oldText);
      const newText = toLf(args.newText);
      if (oldText === newText) throw new ToolError('oldText and newText are identical, so there is nothing to change.');
      const found = countOccurrences(content, oldText);
      if (found.length === 0) {
        throw new ToolError(`oldText was not found in ${target.display}. ${closestHint(content, oldText)}`);
      }
      if (found.length > 1) {
        const where = found.slice(0, 10).map((i) => lineAt(content, i));
        const more = found.length > 10 ? ', …' : '';
        const count = found.length > 1000 ? 'more than 1000' : String(found.length);
        throw new ToolError(
          `oldText occurs ${count} times in ${target.display} (lines ${where.join(', ')}${more}). It must match exactly once: add more surrounding lines to oldText to make it unique.`,
        );
      }
      const at = found[0];
      const updated = content.slice(0, at) + newText + content.slice(at + oldText.length);
      const restored = (bom ? BOM : '') + (ending === 'crlf' ? updated.replace(/\n/g, '\r\n') : updated);
      throwIfAborted(ctx.signal);
      await writeFile(target.absolute, restored, 'utf8');
      const line = lineAt(content, at);
      const removed = oldText.split('\n').length;
      const added = newText.length === 0 ? 0 : newText.split('\n').length;
      const keepDiff = Buffer.byteLength(original) <= limits.diffMaxBytes;
      const details: EditDetails = {
        path: target.display,
        before: keepDiff ? original : '',
        after: keepDiff ? restored : '',
        line,
        lineEnding: ending,
        bom,
      };
      return {
        content: [{ type: 'text', text: `Edited ${target.display}: replaced ${removed} line(s) at line ${line} with ${added} line(s).` }],
        details,
        isError: false,
      };
    },
  });
}
