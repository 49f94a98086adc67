// `read`: a text file with line numbers (windowed by offset/limit and capped), an image as
// ImageContent, and a clear refusal for other binary files. The file is streamed, so reading a window
// of a huge log never loads the whole file.
import { stat, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { openConfined } from './confined-open';
import { isInside, pathTarget, resolveInWorkspace, type ResolvedPath } from './paths';
import { cutLine, formatBytes, looksBinary } from './text';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool, type ToolContext, type ToolLimits, type ToolOutput } from './types';

export const readArgs = z.object({
  path: z.string().describe('File to read, relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe('Number of lines to return'),
});
export type ReadArgs = z.infer<typeof readArgs>;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** MIME type from the file's first bytes, so a misnamed image is still recognised. */
export function sniffImage(head: Uint8Array): string | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

async function readHead(handle: FileHandle, bytes: number): Promise<Buffer> {
  const buf = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buf, 0, bytes, 0);
  return buf.subarray(0, bytesRead);
}

export function lineNumber(n: number): string {
  return String(n).padStart(5, ' ');
}

interface Window {
  lines: string[];
  totalLines: number;
  /** the window stopped early because of the byte cap */
  byteCapped: boolean;
}

/** Streams the file, keeping lines [offset, offset+limit) up to maxBytes, and counts all lines. */
async function readWindow(
  handle: FileHandle,
  offset: number,
  limit: number,
  maxBytes: number,
  maxLineChars: number,
  signal: AbortSignal,
): Promise<Window> {
  const lines: string[] = [];
  let bytes = 0;
  let byteCapped = false;
  let lineNo = 0;
  let pending: Buffer[] = [];
  const take = (raw: Buffer) => {
    lineNo++;
    if (lineNo < offset || byteCapped || lines.length >= limit) return;
    let text = raw.toString('utf8');
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    text = cutLine(text, maxLineChars);
    const cost = Buffer.byteLength(text) + 8;
    if (bytes + cost > maxBytes && lines.length > 0) {
      byteCapped = true;
      return;
    }
    bytes += cost;
    lines.push(text);
  };
  const stream = handle.createReadStream({ start: 0, highWaterMark: 256 * 1024, autoClose: false });
  let sawAny = false;
  let endsWithNewline = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    throwIfAborted(signal);
    sawAny = sawAny || chunk.length > 0;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const wanted = lineNo + 1 >= offset && lines.length < limit && !byteCapped;
      take(wanted ? Buffer.concat([...pending, piece]) : Buffer.alloc(0));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) {
      const wanted = lineNo + 1 >= offset && lines.length < limit && !byteCapped;
      // Only keep bytes of a partial line we will show; cap a monster line's buffer too.
      if (wanted && pending.reduce((n, b) => n + b.length, 0) < maxLineChars * 4 + 4) pending.push(chunk.subarray(start));
      else if (!wanted) pending = [];
    }
    endsWithNewline = chunk.length > 0 ? chunk[chunk.length - 1] === 10 : endsWithNewline;
  }
  if (sawAny && !endsWithNewline) take(Buffer.concat(pending));
  return { lines, totalLines: lineNo, byteCapped };
}

async function readImage(handle: FileHandle, display: string, mimeType: string, size: number, maxBytes: number): Promise<ToolOutput> {
  if (size > maxBytes) {
    throw new ToolError(`Image ${display} is ${formatBytes(size)}, larger than the ${formatBytes(maxBytes)} that can be sent to the model.`);
  }
  const data = (await readHead(handle, size)).toString('base64');
  return {
    content: [
      { type: 'text', text: `Read image ${display} (${mimeType}, ${formatBytes(size)}).` },
      { type: 'image', data, mimeType },
    ],
    details: { path: display, mimeType, bytes: size },
    isError: false,
  };
}

export interface ReadToolOptions {
  /**
   * Real paths of folders outside the workspace whose files `read` may open too, each confined to its
   * folder like the workspace (the user's skill folders: ProjectInstructions.userSkillFolders()).
   */
  extraFolders?: () => readonly string[];
}

/** A path inside one of the extra folders, resolved confined to it and shown as its absolute path. */
async function resolveForRead(ctx: ToolContext, input: string, extraFolders: readonly string[]): Promise<ResolvedPath> {
  const expanded = input === '~' || input.startsWith('~/') ? join(homedir(), input.slice(1)) : input;
  const folder = isAbsolute(expanded) ? extraFolders.find((f) => isInside(f, resolve(expanded))) : undefined;
  if (!folder) return resolveInWorkspace(ctx.workspace, input);
  const target = await resolveInWorkspace({ folders: [{ name: 'skill', path: folder }] }, expanded);
  return { ...target, display: target.absolute };
}

export function createReadTool(options: ReadToolOptions = {}): AgentTool<ReadArgs> {
  return defineTool<ReadArgs>({
    name: 'read',
    description: renderPrompt('system/tools/read', {
      maxLines: String(DEFAULT_TOOL_LIMITS.readMaxLines),
      maxBytes: formatBytes(DEFAULT_TOOL_LIMITS.readMaxBytes),
    }),
    argsSchema: readArgs,
    effect: { kind: 'readOnly', reads: pathTarget },
    keepOutput: true,
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveForRead(ctx, args.path, options.extraFolders?.() ?? []);
      const info = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ToolError(`File not found: ${target.display}. Use ls or find to locate it.`);
        throw error;
      });
      if (info.isDirectory()) throw new ToolError(`${target.display} is a folder, not a file. Use ls to list it.`);
      if (!info.isFile()) throw new ToolError(`${target.display} is not a regular file.`);
      const { handle, stats } = await openConfined(target, 'read');
      try {
        return await readOpened(handle, stats.size, target.absolute, target.display, args, limits, ctx.signal);
      } finally {
        await handle.close();
      }
    },
  });
}

/** Window of a text file (numbered lines and a continuation note), or an image, from an opened file. */
async function readOpened(handle: FileHandle, size: number, absolute: string, display: string, args: ReadArgs, limits: ToolLimits, signal: AbortSignal): Promise<ToolOutput> {
  const head = await readHead(handle, 8192);
  const image = sniffImage(head);
  if (image) return readImage(handle, display, image, size, limits.imageMaxBytes);
  if (looksBinary(head)) {
    const byName = IMAGE_TYPES[extname(absolute).toLowerCase()];
    const hint = byName ? ` Its name says ${byName}, but the content is not a valid image of that type.` : '';
    throw new ToolError(`${display} looks like a binary file (${formatBytes(size)}); read only returns text and PNG/JPEG/GIF/WebP images.${hint}`);
  }
  const offset = args.offset ?? 1;
  const limit = Math.min(args.limit ?? limits.readMaxLines, limits.readMaxLines);
  const window = await readWindow(handle, offset, limit, limits.readMaxBytes, limits.maxLineChars, signal);
  const details = { path: display, totalLines: window.totalLines, offset, lines: window.lines.length };
  if (window.totalLines === 0) return { content: [{ type: 'text', text: `(${display} is empty)` }], details, isError: false };
  if (offset > window.totalLines) throw new ToolError(`Offset ${offset} is past the end of ${display}, which has ${window.totalLines} lines.`);
  const body = window.lines.map((line, i) => `${lineNumber(offset + i)}\t${line}`).join('\n');
  const note = continuationNote(window, offset, args, limits);
  return { content: [{ type: 'text', text: body + note }], details: { ...details, truncated: note !== '' }, isError: false };
}

function continuationNote(window: Window, offset: number, args: ReadArgs, limits: ToolLimits): string {
  const last = offset + window.lines.length - 1;
  if (last >= window.totalLines) return '';
  const why = window.byteCapped
    ? ` (${formatBytes(limits.readMaxBytes)} limit)`
    : window.lines.length >= limits.readMaxLines && args.limit === undefined
      ? ` (${limits.readMaxLines} line limit)`
      : '';
  return `\n\n[Showing lines ${offset}-${last} of ${window.totalLines}${why}. Use offset=${last + 1} to continue.]`;
}
