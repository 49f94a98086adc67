// VS Code's language-model tools (`vscode.lm.tools`: other extensions' tools and the MCP servers the user
// configured in VS Code) as Arbor tools: which are offered (the user's opt-in list of names or tags), their
// names made valid for every provider, their JSON Schema validated by defineJsonTool, and their results
// (text, data and prompt-tsx parts) turned into capped text and images. An outside tool `runs` (asks like
// bash) unless the user listed it as read-only. No `vscode` here: the parts are read by shape, so this is
// unit-tested as is; lm-tools.ts wires it to the editor.
import { createHash } from 'node:crypto';
import type { ImageContent, TextContent } from '../core/messages';
import { defineJsonTool, MAX_OUTSIDE_DESCRIPTION, toolNameChars } from '../agent/tools/json-tool';
import { keepHeadBytes } from '../agent/tools/text';
import { limitsOf, type AgentTool, type ToolContext, type ToolOutput } from '../agent/tools/types';

/** `vscode.LanguageModelToolInformation` (stable since VS Code 1.95). */
export interface LmToolInfo {
  name: string;
  description: string;
  inputSchema?: object | undefined;
  tags: readonly string[];
}

/** Invokes the tool (vscode.lm.invokeTool) with the call's abort signal as a cancellation token. */
export type LmInvoke = (name: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<{ content: readonly unknown[] }>;

/** Listed by name or by one of its tags. */
export function listedIn(info: LmToolInfo, list: readonly string[]): boolean {
  return list.includes(info.name) || info.tags.some((tag) => list.includes(tag));
}

/** Provider-safe name ([A-Za-z0-9_-]{1,64}); the registry makes it unique. */
export function arborName(name: string): string {
  const safe = toolNameChars(name).slice(0, 64);
  return safe === '' ? 'vscode_tool' : safe;
}

/** The user's choice of VS Code tools: offered (names or tags), and read-only among them. */
export interface LmToolChoice {
  enabled: readonly string[];
  readOnly: readonly string[];
}

/** The tools the user opted in to (read by name and tags only). */
export function offeredLmTools(infos: readonly LmToolInfo[], enabled: readonly string[]): LmToolInfo[] {
  return infos.filter((info) => listedIn(info, enabled));
}

export function adaptLmTools(infos: readonly LmToolInfo[], settings: LmToolChoice, invoke: LmInvoke): AgentTool[] {
  return adaptOffered(offeredLmTools(infos, settings.enabled), settings.readOnly, invoke);
}

export function adaptOffered(offered: readonly LmToolInfo[], readOnly: readonly string[], invoke: LmInvoke): AgentTool[] {
  return offered.map((info) => adaptLmTool(info, listedIn(info, readOnly), invoke));
}

/**
 * What the `vscode-lm` source depends on, as a hash: the choice and the offered tools' names, tags,
 * descriptions and schemas. The tools not offered are not read beyond their names and tags, so the poll
 * costs little however many tools the editor has.
 */
export function offeredSignature(offered: readonly LmToolInfo[], choice: LmToolChoice): string {
  const hash = createHash('sha256').update(JSON.stringify(choice));
  for (const info of offered) hash.update('\0').update(JSON.stringify([info.name, info.tags, info.description, info.inputSchema ?? null]));
  return hash.digest('hex');
}

export function adaptLmTool(info: LmToolInfo, readOnly: boolean, invoke: LmInvoke): AgentTool {
  return defineJsonTool({
    name: arborName(info.name),
    description: (info.description || `VS Code tool ${info.name}`).slice(0, MAX_OUTSIDE_DESCRIPTION),
    inputSchema: (info.inputSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
    effect: readOnly ? { kind: 'readOnly' } : { kind: 'runs' },
    origin: { kind: 'vscode', tool: info.name },
    execute: async (args, ctx) => resultOutput((await invoke(info.name, args, ctx.signal)).content, ctx),
  });
}

/** At most this many images are sent from one result; together they stay within the image cap. */
export const MAX_RESULT_IMAGES = 4;
/** A prompt-tsx tree is walked through at most this many nodes (a cyclic tree would fan out without end). */
export const TSX_NODE_BUDGET = 10_000;

/** A tool result's parts as Arbor content: text and JSON capped together, images up to the image caps. */
export function resultOutput(parts: readonly unknown[], ctx: ToolContext): ToolOutput {
  const limits = limitsOf(ctx);
  const texts: string[] = [];
  const images: ImageContent[] = [];
  let imageBytes = 0;
  let imagesLeft = 0;
  for (const part of parts) {
    const image = imageOf(part, limits.imageMaxBytes);
    if (image && images.length < MAX_RESULT_IMAGES && imageBytes + (part as DataPart).data.byteLength <= limits.imageMaxBytes) {
      imageBytes += (part as DataPart).data.byteLength;
      images.push(image);
    } else if (image) imagesLeft++;
    else texts.push(textOf(part));
  }
  if (imagesLeft > 0) texts.push(`[${imagesLeft} more image${imagesLeft === 1 ? '' : 's'} not sent: a result sends at most ${MAX_RESULT_IMAGES} images and ${limits.imageMaxBytes} bytes of images]`);
  const text = capText(texts.filter((t) => t !== '').join('\n'), limits.outputMaxBytes);
  const content: (TextContent | ImageContent)[] = [{ type: 'text', text: text || (images.length > 0 ? '(image result)' : '(no output)') }, ...images];
  return { content, isError: false };
}

interface DataPart {
  mimeType: string;
  data: Uint8Array;
}

function isDataPart(part: unknown): part is DataPart {
  const p = part as Partial<DataPart> | null;
  return !!p && typeof p.mimeType === 'string' && p.data instanceof Uint8Array;
}

function imageOf(part: unknown, maxBytes: number): ImageContent | undefined {
  if (!isDataPart(part) || !/^image\/(png|jpeg|gif|webp)$/.test(part.mimeType) || part.data.byteLength > maxBytes) return undefined;
  return { type: 'image', mimeType: part.mimeType, data: Buffer.from(part.data).toString('base64') };
}

function textOf(part: unknown): string {
  if (isDataPart(part)) return dataText(part);
  const value = (part as { value?: unknown } | null)?.value;
  if (typeof value === 'string') return value;
  if (value !== undefined) return tsxText(value);
  return '';
}

function dataText(part: DataPart): string {
  if (/^(text\/|application\/(json|xml|.*\+json))/.test(part.mimeType)) return Buffer.from(part.data).toString('utf8');
  const what = part.mimeType.startsWith('image/') ? 'image too large or of an unsupported type' : 'binary data';
  return `[${what}: ${part.mimeType}, ${part.data.byteLength} bytes, not shown]`;
}

/** A prompt-tsx part's rendered tree: its text pieces in order, bounded in depth and in nodes visited. */
function tsxText(value: unknown): string {
  const walk = { left: TSX_NODE_BUDGET, pieces: [] as string[] };
  tsxWalk(value, 0, walk);
  return walk.pieces.join('') + (walk.left < 0 ? `\n[prompt-tsx result cut: more than ${TSX_NODE_BUDGET} nodes]` : '');
}

function tsxWalk(value: unknown, depth: number, walk: { left: number; pieces: string[] }): void {
  if (depth > 32 || value === null || value === undefined || --walk.left < 0) return;
  if (typeof value === 'string') walk.pieces.push(value);
  else if (Array.isArray(value)) for (const v of value) tsxWalk(v, depth + 1, walk);
  else if (typeof value === 'object') tsxNode(value as Record<string, unknown>, depth, walk);
}

function tsxNode(node: Record<string, unknown>, depth: number, walk: { left: number; pieces: string[] }): void {
  if (typeof node.text === 'string') walk.pieces.push(node.text);
  else for (const key of ['node', 'children', 'value']) tsxWalk(node[key], depth + 1, walk);
}

function capText(text: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  const cut = keepHeadBytes(text, maxBytes);
  return `${cut}\n[output cut: ${bytes} bytes, the first ${maxBytes} shown]`;
}

/**
 * The enabled list after the chooser: entries that name no tool (tags, tools not registered right now) are
 * kept, tool names are the ones checked.
 */
export function chosenList(current: readonly string[], infos: readonly LmToolInfo[], checked: readonly string[]): string[] {
  const names = new Set(infos.map((i) => i.name));
  const kept = current.filter((entry) => !names.has(entry));
  return [...new Set([...kept, ...checked])];
}
