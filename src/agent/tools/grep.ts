// `grep`: regex or literal search over file contents. Uses ripgrep's JSON output for folders when
// available and a pure-Node search otherwise (and always for a single file), with the same output
// format: `path:line: text` for matches, `path-line- text` for context, `--` between groups.
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { RG_COMMON_ARGS } from './find';
import { compileGlob } from './glob';
import { displayPathSync, resolveInWorkspace, workspaceRootInfos, type RootInfo } from './paths';
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

async function readTextFile(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (info.size > NODE_MAX_FILE_BYTES) return undefined;
    const buf = Buffer.alloc(info.size);
    await handle.read(buf, 0, info.size, 0);
    return looksBinary(buf.subarray(0, 8192)) ? undefined : buf.toString('utf8');
  } finally {
    await handle.close();
  }
}

function searchText(display: string, text: string, regex: RegExp, context: number, out: GrepOutput): void {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length && !out.full; i++) {
    if (!regex.test(lines[i])) continue;
    for (let c = Math.max(0, i - context); c < i; c++) out.add(display, c + 1, lines[c], false);
    out.add(display, i + 1, lines[i], true);
    let last = i;
    // Context after: a later match inside the window is printed as a match by the outer loop.
    for (let c = i + 1; c <= Math.min(lines.length - 1, i + context); c++) {
      if (regex.test(lines[c])) break;
      out.add(display, c + 1, lines[c], false);
      last = c;
    }
    i = Math.max(i, last);
  }
}

async function grepWithNode(
  args: GrepArgs,
  targetAbs: string,
  isFile: boolean,
  roots: readonly RootInfo[],
  rootReal: string | undefined,
  context: number,
  out: GrepOutput,
  signal: AbortSignal,
): Promise<void> {
  const regex = buildRegex(args);
  if (isFile) {
    const text = await readTextFile(targetAbs);
    if (text === undefined) throw new ToolError(`${displayPathSync(roots, targetAbs)} is binary or too large to search.`);
    searchText(displayPathSync(roots, targetAbs), text, regex, context, out);
    return;
  }
  const filter = args.glob ? compileGlob(args.glob) : undefined;
  for await (const rel of walkFiles(targetAbs, { root: rootReal, signal })) {
    if (out.full) break;
    if (filter && !filter(rel)) continue;
    const abs = join(targetAbs, rel);
    const text = await readTextFile(abs).catch(() => undefined);
    if (text !== undefined) searchText(displayPathSync(roots, abs), text, regex, context, out);
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
  const run = await runRipgrep(rg, rgArgs, targetAbs, signal, (line) => {
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
    mutating: false,
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path ?? '.');
      const info = await stat(target.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`Path not found: ${target.display}.`);
      if (args.glob) compileGlob(args.glob);
      const roots = await workspaceRootInfos(ctx.workspace);
      const root = roots.find((r) => r.folder === target.folder);
      const context = Math.min(args.context ?? 0, MAX_CONTEXT);
      const limit = Math.min(args.limit ?? limits.grepDefaultLimit, limits.maxResultLimit);
      let out = new GrepOutput(limit, limits.outputMaxBytes);
      const rg = info.isDirectory() ? resolveRipgrep(options.ripgrep) : undefined;
      let engine = 'node';
      if (rg) {
        const ok = await grepWithRipgrep(rg, args, target.absolute, roots, context, out, ctx.signal).catch((error: unknown) => {
          if (error instanceof ToolError) throw error;
          return false;
        });
        if (ok) engine = 'ripgrep';
        else out = new GrepOutput(limit, limits.outputMaxBytes);
      }
      if (engine === 'node') {
        await grepWithNode(args, target.absolute, !info.isDirectory(), roots, root?.real, context, out, ctx.signal);
      }
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
