// Images attached to a prompt (pasted, dropped or picked in the chat's composer): their wire shape, the
// limits, and the one check of what an image really is (its first bytes, not the name or the type the
// sender claims). The host runs `checkImage` on every image the webview sends; the webview runs it too,
// before a chip appears. No `vscode`, no Node APIs: the webview bundles this file.
import { z } from 'zod';

export const IMAGE_LIMITS = {
  /** decoded bytes of one image (the providers refuse larger ones; Anthropic's cap is 5 MB) */
  maxBytes: 5 * 1024 * 1024,
  /** images one prompt may carry */
  perMessage: 4,
  /** images of one stored user message the chat shows (a pi session may hold more; the rest are counted) */
  shown: 20,
} as const;

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** The file name extensions the *Attach image* picker offers, in the order of IMAGE_MIME_TYPES. */
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;

/** base64 characters of `bytes` decoded bytes (padded) */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An image as pi stores it in a message (`data` is base64 without a data: prefix). */
export const imageSchema = z.strictObject({
  mimeType: z.enum(IMAGE_MIME_TYPES),
  data: z.string().min(1).max(base64Length(IMAGE_LIMITS.maxBytes)).regex(BASE64),
});
export type WireImage = z.infer<typeof imageSchema>;

/** An image on its way into the composer: `name` is only for chips and error messages. */
export const imageAttachmentSchema = imageSchema.extend({ name: z.string().max(1_000) });
export type ImageAttachment = z.infer<typeof imageAttachmentSchema>;

/**
 * A chip of the composer's draft: the host names each image it hands the webview (`id`) and keeps the
 * draft's images per view (src/app/draft-images.ts), so a re-created webview gets its chips back.
 */
export const draftImageSchema = imageAttachmentSchema.extend({ id: z.string().min(1).max(64) });
export type DraftImage = z.infer<typeof draftImageSchema>;

/** the chips the composer shows now (after every change): the host keeps only these, in this order */
export const draftImagesMessageSchema = z.strictObject({
  type: z.literal('draftImages'),
  ids: z.array(z.string().min(1).max(64)).max(IMAGE_LIMITS.perMessage),
});
/** a re-created webview's chips: the draft's images the host kept (they replace any chips) */
export const restoreDraftImagesMessageSchema = z.strictObject({
  type: z.literal('restoreDraftImages'),
  images: z.array(draftImageSchema).max(IMAGE_LIMITS.perMessage),
});

/** paste or drop: the webview read the files; the host checks them and answers with `imagesAttached` */
export const attachImagesMessageSchema = z.strictObject({
  type: z.literal('attachImages'),
  images: z.array(imageAttachmentSchema).min(1).max(IMAGE_LIMITS.perMessage),
});
/** *Attach image*: the host opens a file picker and answers with `imagesAttached` */
export const pickImagesMessageSchema = z.strictObject({ type: z.literal('pickImages') });

export const imageProblemSchema = z.enum(['notImage', 'tooLarge', 'tooMany']);
export type ImageProblem = z.infer<typeof imageProblemSchema>;

/** the images that passed `checkImage` (chips to add) and the ones refused, with why */
export const imagesAttachedMessageSchema = z.strictObject({
  type: z.literal('imagesAttached'),
  images: z.array(draftImageSchema).max(IMAGE_LIMITS.perMessage),
  refused: z.array(z.strictObject({ name: z.string().max(1_000), problem: imageProblemSchema })).max(100),
});

/** The images of a stored user message, as the chat shows them; `hidden`: those it does not show. */
export const userImagesSchema = z.strictObject({
  shown: z.array(imageSchema).max(IMAGE_LIMITS.shown),
  hidden: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type UserImages = z.infer<typeof userImagesSchema>;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The first bytes of base64 `data` (up to 12), decoded without Buffer or atob (both sides run this). */
export function base64Head(data: string, count = 12): number[] {
  const bytes: number[] = [];
  for (let i = 0; i + 4 <= data.length && bytes.length < count; i += 4) {
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => B64.indexOf(data[i + k]!));
    bytes.push(((a! << 2) | (b! >> 4)) & 0xff);
    if (c! >= 0) bytes.push((((b! & 15) << 4) | (c! >> 2)) & 0xff);
    if (d! >= 0) bytes.push((((c! & 3) << 6) | d!) & 0xff);
  }
  return bytes.slice(0, count);
}

function startsWith(head: readonly number[], bytes: readonly number[], at = 0): boolean {
  return bytes.every((byte, i) => head[at + i] === byte);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type by its magic bytes (PNG, JPEG, GIF, WebP), or undefined for anything else. */
export function sniffImageType(head: readonly number[]): ImageMimeType | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** decoded bytes of base64 `data` */
export function decodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

export type ImageCheck = { ok: true; image: WireImage } | { ok: false; problem: ImageProblem };

/**
 * Whether base64 `data` is a PNG/JPEG/GIF/WebP within the size cap. The type comes from the bytes: a
 * claimed type is never trusted (a JPEG named .png is sent as image/jpeg, a renamed text file is refused).
 * The size is checked first, from the length alone: a huge stored image costs nothing on each post.
 */
export function checkImage(image: { data: string }): ImageCheck {
  if (image.data.length === 0) return { ok: false, problem: 'notImage' };
  if (decodedBytes(image.data) > IMAGE_LIMITS.maxBytes) return { ok: false, problem: 'tooLarge' };
  if (!BASE64.test(image.data)) return { ok: false, problem: 'notImage' };
  const mimeType = sniffImageType(base64Head(image.data));
  return mimeType ? { ok: true, image: { mimeType, data: image.data } } : { ok: false, problem: 'notImage' };
}

/** What the chat shows of a stored message's image blocks: the valid ones (up to `shown`), the rest counted. */
export function userImages(blocks: readonly { type: string; data?: unknown }[]): UserImages | undefined {
  const images = blocks.filter((b) => b.type === 'image');
  if (images.length === 0) return undefined;
  const shown: WireImage[] = [];
  for (const block of images) {
    const check = shown.length < IMAGE_LIMITS.shown && typeof block.data === 'string' ? checkImage({ data: block.data }) : undefined;
    if (check?.ok) shown.push(check.image);
  }
  return { shown, hidden: images.length - shown.length };
}

export interface ScreenedImages {
  images: ImageAttachment[];
  refused: { name: string; problem: ImageProblem }[];
}

/** Runs `checkImage` on each attachment; after `room` accepted ones, the rest are refused as too many. */
export function screenImages(list: readonly { name: string; data: string }[], room: number = IMAGE_LIMITS.perMessage): ScreenedImages {
  const out: ScreenedImages = { images: [], refused: [] };
  for (const { name, data } of list) {
    const check = checkImage({ data });
    if (!check.ok) out.refused.push({ name, problem: check.problem });
    else if (out.images.length >= room) out.refused.push({ name, problem: 'tooMany' });
    else out.images.push({ name, ...check.image });
  }
  return out;
}
