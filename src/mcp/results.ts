// An MCP tool result is hostile input: it becomes the model's text and the card's content, so it is
// capped per item and in total, images are kept only in the types and sizes the model can read, and
// everything else (audio, resource links, embedded resources, structuredContent) becomes plain text
// naming what it was. Nothing here is markup: the webview renders it as text (docs/reliability.md).
// The caps count blocks too: empty text is skipped, consecutive text becomes one part, a result has at
// most MAX_PARTS parts and its list of what was not shown keeps MAX_DROPPED lines and a count.
import type { ImageContent, TextContent } from '../core/messages';
import type { ToolOutput } from '../agent/tools/types';

export interface ResultCaps {
  /** most characters of all text in one result */
  totalChars: number;
  /** most characters of one text item */
  itemChars: number;
  /** most characters kept of an embedded text resource */
  resourceChars: number;
  /** largest image (base64 characters) and most images per result */
  imageChars: number;
  maxImages: number;
}

export const DEFAULT_RESULT_CAPS: ResultCaps = {
  totalChars: 50 * 1024,
  itemChars: 32 * 1024,
  resourceChars: 8 * 1024,
  imageChars: Math.floor((5 * 1024 * 1024 * 4) / 3),
  maxImages: 4,
};

/** most content parts in one result, and most "not shown" lines kept in details */
export const MAX_PARTS = 64;
export const MAX_DROPPED = 20;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A resource the result named, listed on the card. */
export interface ResultLink {
  uri: string;
  name?: string;
  mimeType?: string;
}

/** `details` of an MCP tool result: what the card shows beside the content. */
export interface McpResultDetails {
  /** dropped: the first MAX_DROPPED lines; droppedCount: how many blocks were not shown in all */
  mcp: { server: string; tool: string; links: ResultLink[]; truncated: boolean; dropped: string[]; droppedCount: number };
}

type Block = Record<string, unknown>;

interface Acc {
  content: (TextContent | ImageContent)[];
  links: ResultLink[];
  dropped: string[];
  droppedCount: number;
  chars: number;
  images: number;
  truncated: boolean;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return { text: `${text.slice(0, max)}\n[… ${text.length - max} more characters cut by Arbor]`, cut: true };
}

function drop(acc: Acc, what: string): void {
  acc.droppedCount++;
  if (acc.dropped.length < MAX_DROPPED) acc.dropped.push(what);
}

/** Appends a text part, joined to the previous part when that is text too. */
function appendText(acc: Acc, text: string): void {
  const last = acc.content[acc.content.length - 1];
  if (last?.type === 'text') last.text += `\n${text}`;
  else if (acc.content.length < MAX_PARTS) acc.content.push({ type: 'text', text });
  else acc.truncated = true;
}

function pushText(acc: Acc, text: string, caps: ResultCaps, itemMax = caps.itemChars): void {
  if (text === '') return;
  const room = caps.totalChars - acc.chars;
  if (room <= 0) {
    acc.truncated = true;
    return;
  }
  const piece = cut(text, Math.min(itemMax, room));
  acc.truncated ||= piece.cut;
  acc.chars += Math.min(text.length, itemMax, room);
  appendText(acc, piece.text);
}

function pushImage(acc: Acc, block: Block, caps: ResultCaps): void {
  const data = str(block.data) ?? '';
  const mimeType = str(block.mimeType) ?? '';
  if (!IMAGE_TYPES.has(mimeType)) return drop(acc, `an image of type ${mimeType.slice(0, 100) || 'unknown'} (not shown)`);
  if (data.length > caps.imageChars) return drop(acc, `an image of ${Math.round(data.length * 0.75)} bytes (too large)`);
  if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) return drop(acc, 'an image whose data is not base64');
  if (acc.images >= caps.maxImages || acc.content.length >= MAX_PARTS) return drop(acc, 'an image (too many in one result)');
  acc.images++;
  acc.content.push({ type: 'image', data: data.replace(/\s+/g, ''), mimeType });
}

function linkOf(resource: Block): ResultLink {
  const link: ResultLink = { uri: (str(resource.uri) ?? '').slice(0, 2048) };
  const name = str(resource.name) ?? str(resource.title);
  if (name) link.name = name.slice(0, 200);
  const mime = str(resource.mimeType);
  if (mime) link.mimeType = mime.slice(0, 100);
  return link;
}

function pushResource(acc: Acc, resource: Block, caps: ResultCaps): void {
  const link = linkOf(resource);
  if (acc.links.length < 50) acc.links.push(link);
  const text = str(resource.text);
  if (text !== undefined) pushText(acc, `Resource ${link.uri}:\n${text}`, caps, caps.resourceChars);
  else pushText(acc, `[Resource ${link.uri}${link.mimeType ? ` (${link.mimeType})` : ''}: binary content not shown]`, caps);
}

function addBlock(acc: Acc, block: Block, caps: ResultCaps): void {
  switch (block.type) {
    case 'text':
      return pushText(acc, str(block.text) ?? '', caps);
    case 'image':
      return pushImage(acc, block, caps);
    case 'audio':
      return pushText(acc, `[Audio (${str(block.mimeType) ?? 'unknown type'}): not shown to the model]`, caps);
    case 'resource_link': {
      const link = linkOf(block);
      if (acc.links.length < 50) acc.links.push(link);
      return pushText(acc, `[Resource link: ${link.uri}${link.name ? ` (${link.name})` : ''}]`, caps);
    }
    case 'resource':
      return pushResource(acc, (block.resource ?? {}) as Block, caps);
    default:
      drop(acc, `content of type ${JSON.stringify(String(block.type)).slice(0, 40)}`);
  }
}

/** The model's ToolOutput for one `tools/call` result (or an error the SDK raised). */
export function toolOutputOf(result: unknown, server: string, tool: string, caps: ResultCaps = DEFAULT_RESULT_CAPS): ToolOutput {
  const body = (result && typeof result === 'object' ? result : {}) as Block;
  const acc: Acc = { content: [], links: [], dropped: [], droppedCount: 0, chars: 0, images: 0, truncated: false };
  const blocks = Array.isArray(body.content) ? body.content : [];
  for (const block of blocks) if (block && typeof block === 'object') addBlock(acc, block as Block, caps);
  const hasText = acc.content.some((c) => c.type === 'text');
  if (!hasText && body.structuredContent !== undefined) pushText(acc, jsonText(body.structuredContent), caps);
  if (acc.droppedCount > 0) pushText(acc, notShown(acc), { ...caps, totalChars: Infinity }, 2000);
  if (acc.content.length === 0) acc.content.push({ type: 'text', text: '(the tool returned no content)' });
  const mcp = { server, tool, links: acc.links.slice(0, 50), truncated: acc.truncated, dropped: acc.dropped, droppedCount: acc.droppedCount };
  const details: McpResultDetails = { mcp };
  return { content: acc.content, details, isError: body.isError === true };
}

function notShown(acc: Acc): string {
  const more = acc.droppedCount - acc.dropped.length;
  return `[Not shown: ${acc.dropped.join('; ')}${more > 0 ? `; and ${more} more` : ''}]`;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return '[structured content that cannot be shown as JSON]';
  }
}
