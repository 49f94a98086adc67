// `grep`: regex or literal search over file contents. Uses ripgrep's JSON output for folders when
// available and a pure-Node search otherwise (and always for a single file), with the same output
// format: `path:line: text` for matches, `path-line- text` for context, `--` between groups. The JS
// regular expression runs in a worker with a deadline (regex-worker.ts), never on the host's thread.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { RG_COMMON_ARGS } from './find';
import { compileGlob } from './glob';
import { holdFolder, openConfined, readAll, type ConfinedPath } from './confined-open';
import { displayPathSync, resolveInWorkspace, workspaceRootInfos, type ResolvedPath, type RootInfo } from './paths';
import { RegexWorker } from './regex-worker';
import { resolveRipgrep, runRipgrep, type RipgrepOption } from './ripgrep';
import { cutLine, looksBinary } from './text';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool } from './types';
import { walkFiles } from './walk';

export const grepArgs = z.object({
  pattern: z.string().min(1, 'pattern must not be empty').describe('Regular expression (or plain text with literal: true)'),
  path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: the root)'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts"'),
  ignoreCase: z.boolean().optional().describe('Case-insensitive search'),
  literal: z.boolean().optional().describe('Treat pattern as plain text, not a regular expression'),
  context: z.number().int().min(0).optional().describe('Lines of context before and after each match'),
  limit: z.number().int().min(1).optional().describe('Maximum number of matches'),
});
export type GrepArgs = z.infer<typeof grepArgs>;

const MAX_CONTEXT = 20;
const MAX_LINE_CHARS = 500;
const NODE_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Collects output lines, counting matches and adding `--` between non-adjacent groups. */
class GrepOutput {
  readonly lines: string[] = [];
  matches = 0;
  bytes = 0;
  byteCapped = false;
  /** a match beyond the limit was seen */
  more = false;
  private lastFile = '';
  private lastLine = -1;

  constructor(
    private readonly limit: number,
    private readonly maxBytes: number,
  ) {}

  get full(): boolean {
    return this.more || this.byteCapped;
  }

  add(file: string, line: number, text: string, isMatch: boolean): void {
    if (this.byteCapped || this.more) return;
    if (isMatch && this.matches >= this.limit) {
      this.more = true;
      return;
    }
    if (this.lines.length > 0 && (file !== this.lastFile || line > this.lastLine + 1)) this.push('--');
    if (file === this.lastFile && line <= this.lastLine) return;
    this.push(`${file}${isMatch ? ':' : '-'}${line}${isMatch ? ':' : '-'} ${cutLine(text.replace(/\r$/, ''), MAX_LINE_CHARS)}`);
    this.lastFile = file;
    this.lastLine = line;
    if (isMatch) this.matches++;
  }

  private push(line: string): void {
    const cost = Buffer.byteLength(line) + 1;
    if (this.bytes + cost > this.maxBytes) {
      this.byteCapped = true;
      return;
    }
    this.bytes += cost;
    this.lines.push(line);
  }
}

function buildRegex(args: GrepArgs): RegExp {
  const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : args.pattern;
  try {
    return new RegExp(source, args.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${(error as Error).message}. Pass literal: true to search for the text as is.`);
  }
}

async function readTextFile(target: ConfinedPath): Promise<string | undefined> {
  const { handle, stats } = await openConfined(target, 'read');
  try {
    if (stats.size > NODE_MAX_FILE_BYTES) return undefined;
    const buf = await readAll(handle, stats.size);
    return looksBinary(buf.subarray(0, 8192)) ? undefined : buf.toString('utf8');
  } finally {
    await handle.close();
  }
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Prints the matching lines `hits` (ascending) with their context; a match ends the context after another. */
function emitMatches(display: string, lines: readonly string[], hits: readonly number[], context: number, out: GrepOutput): void {
  const isHit = new Set(hits);
  for (const i of hits) {
    if (out.full) return;
    for (let c = Math.max(0, i - context); c < i; c++) out.add(display, c + 1, lines[c], false);
    out.add(display, i + 1, lines[i], true);
    for (let c = i + 1; c <= Math.min(lines.length - 1, i + context) && !isHit.has(c); c++) out.add(display, c + 1, lines[c], false);
  }
}

async function searchText(file: ConfinedPath, text: string, worker: RegexWorker, search: NodeSearch): Promise<void> {
  const hits = await worker.matchingLines(text, search.limit - search.out.matches + 1, file.display);
  emitMatches(file.display, splitLines(text), hits, search.context, search.out);
}

interface NodeSearch {
  context: number;
  limit: number;
  out: GrepOutput;
  signal: AbortSignal;
}

async function grepWithNode(args: GrepArgs, target: ResolvedPath, isFile: boolean, roots: readonly RootInfo[], search: NodeSearch): Promise<void> {
  const regex = buildRegex(args);
  const worker = new RegexWorker(regex.source, regex.flags, search.signal);
  try {
    if (isFile) {
      const text = await readTextFile(target);
      if (text === undefined) throw new ToolError(`${target.display} is binary or too large to search.`);
      await searchText(target, text, worker, search);
      return;
    }
    const filter = args.glob ? compileGlob(args.glob) : undefined;
    for await (const rel of walkFiles(target.absolute, { root: target.root, signal: search.signal })) {
      if (search.out.full) break;
      if (filter && !filter(rel)) continue;
      const absolute = join(target.absolute, rel);
      const file = { root: target.root, absolute, display: displayPathSync(roots, absolute) };
      // A file that vanished, is unreadable or was swapped for a link or a FIFO is skipped.
      const text = await readTextFile(file).catch(() => undefined);
      if (text !== undefined) await searchText(file, text, worker, search);
    }
  } finally {
    worker.dispose();
  }
}

interface RgJson {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string; bytes?: string }; line_number?: number };
}

async function grepWithRipgrep(
  rg: string,
  args: GrepArgs,
  targetAbs: string,
  cwd: string,
  roots: readonly RootInfo[],
  context: number,
  out: GrepOutput,
  signal: AbortSignal,
): Promise<boolean> {
  const rgArgs = ['--json', ...RG_COMMON_ARGS, '--sort', 'path'];
  if (args.ignoreCase) rgArgs.push('--ignore-case');
  if (args.literal) rgArgs.push('--fixed-strings');
  if (context > 0) rgArgs.push('--context', String(context));
  if (args.glob) rgArgs.push('--glob', args.glob);
  rgArgs.push('--regexp', args.pattern, '--', '.');
  const run = await runRipgrep(rg, rgArgs, cwd, signal, (line) => {
    let event: RgJson;
    try {
      event = JSON.parse(line) as RgJson;
    } catch {
      return true;
    }
    if ((event.type === 'match' || event.type === 'context') && event.data?.path?.text !== undefined) {
      const display = displayPathSync(roots, join(targetAbs, event.data.path.text));
      const raw = event.data.lines?.text ?? Buffer.from(event.data.lines?.bytes ?? '', 'base64').toString('utf8');
      out.add(display, event.data.line_number ?? 0, raw.replace(/\r?\n$/, ''), event.type === 'match');
    }
    return !out.full;
  });
  if (run.stopped || run.exitCode === 0 || run.exitCode === 1) return true;
  const message = run.stderr.trim().split('\n').slice(0, 6).join('\n');
  if (/regex parse error|error parsing glob|unclosed|invalid/i.test(message)) {
    throw new ToolError(`ripgrep rejected the search: ${message}${args.literal ? '' : '\nPass literal: true to search for the text as is.'}`);
  }
  return false;
}

export function createGrepTool(options: { ripgrep?: RipgrepOption } = {}): AgentTool<GrepArgs> {
  return defineTool<GrepArgs>({
    name: 'grep',
    description: renderPrompt('system/tools/grep', { defaultLimit: String(DEFAULT_TOOL_LIMITS.grepDefaultLimit) }),
    argsSchema: grepArgs,
    effect: { kind: 'readOnly' },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path ?? '.');
      const info = await stat(target.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`Path not found: ${target.display}.`);
      if (args.glob) compileGlob(args.glob);
      const roots = await workspaceRootInfos(ctx.workspace);
      const context = Math.min(args.context ?? 0, MAX_CONTEXT);
      const limit = Math.min(args.limit ?? limits.grepDefaultLimit, limits.maxResultLimit);
      let out = new GrepOutput(limit, limits.outputMaxBytes);
      const rg = info.isDirectory() ? resolveRipgrep(options.ripgrep) : undefined;
      let engine = 'node';
      if (rg) {
        const folder = await holdFolder(target);
        const ok = await grepWithRipgrep(rg, args, target.absolute, folder.cwd, roots, context, out, ctx.signal)
          .catch((error: unknown) => {
            if (error instanceof ToolError) throw error;
            return false;
          })
          .finally(() => folder.close());
        if (ok) engine = 'ripgrep';
        else out = new GrepOutput(limit, limits.outputMaxBytes);
      }
      if (engine === 'node') await grepWithNode(args, target, !info.isDirectory(), roots, { context, limit, out, signal: ctx.signal });
      throwIfAborted(ctx.signal);
      const details = { pattern: args.pattern, path: target.display, matches: out.matches, truncated: out.full, engine };
      if (out.matches === 0) {
        return { content: [{ type: 'text', text: `No matches for "${args.pattern}" under ${target.display}.` }], details, isError: false };
      }
      let text = out.lines.join('\n');
      if (out.byteCapped) text += `\n\n[Output cut at ${limits.outputMaxBytes} bytes after ${out.matches} matches. Narrow the search with path or glob.]`;
      else if (out.more) text += `\n\n[Stopped at ${limit} matches. Narrow the search with path or glob, or pass a larger limit.]`;
      return { content: [{ type: 'text', text }], details, isError: false };
    },
  });
}
