// `edit`: replaces exactly one occurrence of oldText. Matching happens on LF-normalised text without
// the BOM, so the model can copy from `read`; the file's CRLF endings and BOM are restored on write.
// The splice works on the file's bytes (exact-splice.ts): every byte outside the replaced span is kept
// as it was, also in files that are not valid UTF-8 or mix line endings.
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { openConfined, readAll, replaceContent } from './confined-open';
import { planSplice, toLf, type SplicePlan } from './exact-splice';
import { pathTarget, refuseNewHardLinks, writeTarget } from './paths';
import { cutLine, formatBytes, looksBinary } from './text';
import { ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool } from './types';
import { lineNumber } from './read';

export const editArgs = z.object({
  path: z.string().describe('File to change, relative to the workspace root'),
  oldText: z.string().min(1, 'oldText must not be empty').describe('Exact text to replace; must occur exactly once'),
  newText: z.string().describe('Replacement text (empty to delete)'),
});
export type EditArgs = z.infer<typeof editArgs>;

export { detectLineEnding } from './exact-splice';

export interface EditDetails {
  path: string;
  before: string;
  after: string;
  /** 1-based line where the replacement starts */
  line: number;
  lineEnding: 'lf' | 'crlf';
  bom: boolean;
}

const MAX_EDIT_FILE_BYTES = 20 * 1024 * 1024;

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
    effect: { kind: 'writesFiles', targets: pathTarget, proposed: proposedEdit },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await writeTarget(ctx, args.path);
      const info = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ToolError(`File not found: ${target.display}. Use write to create a new file.`);
        throw error;
      });
      if (!info.isFile()) throw new ToolError(`${target.display} is not a regular file.`);
      if (info.size > MAX_EDIT_FILE_BYTES) {
        throw new ToolError(`${target.display} is ${formatBytes(info.size)}; edit handles files up to ${formatBytes(MAX_EDIT_FILE_BYTES)}.`);
      }
      const { handle, stats } = await openConfined(target, 'update');
      try {
        refuseNewHardLinks(ctx, args.path, stats, target.display);
        if (stats.size > MAX_EDIT_FILE_BYTES) throw new ToolError(`${target.display} grew past ${formatBytes(MAX_EDIT_FILE_BYTES)} while being opened.`);
        const raw = await readAll(handle, stats.size);
        if (looksBinary(raw)) throw new ToolError(`${target.display} looks like a binary file; edit only changes text files.`);
        const plan = planOrExplain(raw, args, target.display);
        throwIfAborted(ctx.signal);
        await replaceContent(handle, plan.updated);
        return editedOutput(target.display, raw, plan, args, limits.diffMaxBytes);
      } finally {
        await handle.close();
      }
    },
  });
}

/**
 * What the file would hold after the call, for the approval's diff: the one exact match of oldText
 * replaced on LF-normalised text, the file's CRLF endings kept. Undefined when the call will fail
 * (new file, no unique match); the tool itself then says why.
 */
export function proposedEdit(args: Record<string, unknown>, original: string, isNewFile: boolean): string | undefined {
  if (isNewFile || typeof args.oldText !== 'string' || typeof args.newText !== 'string' || args.oldText === '') return undefined;
  const crlf = original.includes('\r\n');
  const content = crlf ? original.replace(/\r\n/g, '\n') : original;
  const oldText = args.oldText.replace(/\r\n/g, '\n');
  const newText = args.newText.replace(/\r\n/g, '\n');
  const at = content.indexOf(oldText);
  if (at === -1 || content.indexOf(oldText, at + 1) !== -1) return undefined;
  const updated = content.slice(0, at) + newText + content.slice(at + oldText.length);
  return crlf ? updated.replace(/\n/g, '\r\n') : updated;
}

/** The splice for `args`, or a ToolError saying why oldText does not pick exactly one place. */
function planOrExplain(raw: Buffer, args: EditArgs, display: string): Extract<SplicePlan, { kind: 'ok' }> {
  const plan = planSplice(raw, args.oldText, args.newText);
  if (plan.kind === 'ok') return plan;
  if (plan.kind === 'identical') throw new ToolError('oldText and newText are identical, so there is nothing to change.');
  if (plan.kind === 'lossy') {
    throw new ToolError(
      `${display} is not valid UTF-8, and oldText matches it only where undecodable bytes were shown as U+FFFD. edit changes such a file only where the replaced text is plain UTF-8 on both sides; nothing was changed.`,
    );
  }
  if (plan.kind === 'missing') throw new ToolError(`oldText was not found in ${display}. ${closestHint(plan.content, plan.oldText)}`);
  const where = plan.lines.slice(0, 10);
  const more = plan.count > 10 ? ', …' : '';
  const count = plan.count > 1000 ? 'more than 1000' : String(plan.count);
  throw new ToolError(
    `oldText occurs ${count} times in ${display} (lines ${where.join(', ')}${more}). It must match exactly once: add more surrounding lines to oldText to make it unique.`,
  );
}

function editedOutput(display: string, raw: Buffer, plan: Extract<SplicePlan, { kind: 'ok' }>, args: EditArgs, diffMaxBytes: number) {
  const removed = toLf(args.oldText).split('\n').length;
  const added = args.newText.length === 0 ? 0 : toLf(args.newText).split('\n').length;
  const keepDiff = raw.length <= diffMaxBytes;
  const details: EditDetails = {
    path: display,
    before: keepDiff ? raw.toString('utf8') : '',
    after: keepDiff ? plan.updated.toString('utf8') : '',
    line: plan.line,
    lineEnding: plan.lineEnding,
    bom: plan.bom,
  };
  return {
    content: [{ type: 'text' as const, text: `Edited ${display}: replaced ${removed} line(s) at line ${plan.line} with ${added} line(s).` }],
    details,
    isError: false,
  };
}
