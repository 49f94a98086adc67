// The host half of images in the chat's composer: what the webview pasted or dropped is checked
// (src/protocol/images.ts: the type by its bytes, the size cap, the count) and answered with the chips to
// add; *Attach image* opens the editor's file picker; a prompt's images are checked again before they go
// to the model, and a model without image input gets a notice instead of the prompt. Every chip handed
// to the composer is kept in the view's draft (draft-images.ts) until sent or removed.
import * as vscode from 'vscode';
import type { ImageContent } from '../core/messages';
import type { QueuedPrompt } from '../agent/agent-session';
import { IMAGE_EXTENSIONS, IMAGE_LIMITS, LIMITS, screenImages, type HostToWebviewMessage, type ImageAttachment, type ScreenedImages, type WireImage } from '../protocol';
import type { DraftImages } from './draft-images';

/** The answer to `attachImages` / `pickImages`: the chips to add and the files refused (the webview says why). */
export function imagesAttached(screened: ScreenedImages, draft: DraftImages): HostToWebviewMessage {
  return { type: 'imagesAttached', images: draft.add(screened.images), refused: screened.refused.slice(0, 100) };
}

/** paste / drop: the webview read the files, the host judges them */
export function attachImages(images: readonly ImageAttachment[], draft: DraftImages): HostToWebviewMessage {
  return imagesAttached(screenImages(images, draft.room), draft);
}

async function readPicked(uri: vscode.Uri): Promise<{ name: string; data: string } | { name: string; tooLarge: true }> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const { size } = await vscode.workspace.fs.stat(uri);
  if (size > IMAGE_LIMITS.maxBytes) return { name, tooLarge: true };
  return { name, data: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64') };
}

/** *Attach image*: the file picker (PNG/JPEG/GIF/WebP); undefined when the user cancelled it. */
export async function pickImages(draft: DraftImages): Promise<HostToWebviewMessage | undefined> {
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Attach'),
    title: vscode.l10n.t('Attach images'),
    filters: { [vscode.l10n.t('Images')]: [...IMAGE_EXTENSIONS] },
  });
  if (!uris?.length) return undefined;
  const files = await Promise.all(uris.map(readPicked));
  const screened = screenImages(files.flatMap((f) => ('data' in f ? [f] : [])), draft.room);
  for (const f of files) if (!('data' in f)) screened.refused.push({ name: f.name, problem: 'tooLarge' });
  return imagesAttached(screened, draft);
}

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * A prompt coming back to the input (a queued one taken back, a message picked to edit and resend): its
 * text, and its images as chips, checked again and kept in the draft as far as it has room (a message's
 * images at most), then a notice for the rest. Images have no file names once sent or queued: they come
 * back as "image 1.png", …
 */
export function backToInput(text: string, images: readonly ImageContent[], draft: DraftImages): HostToWebviewMessage[] {
  const named = images.map((image, i) => ({ name: `image ${i + 1}.${EXTENSION[image.mimeType] ?? 'png'}`, data: image.data }));
  const screened = screenImages(named, draft.room);
  const chips = screened.images.length > 0 ? { images: draft.add(screened.images) } : {};
  const out: HostToWebviewMessage[] = [{ type: 'editorText', text: text.slice(0, LIMITS.prompt), ...chips }];
  const lost = screened.refused.filter((r) => r.problem === 'tooMany').length;
  if (lost > 0) out.push({ type: 'notice', level: 'warning', message: vscode.l10n.t('{0} image(s) did not fit in the input: a message carries at most {1} images.', lost, IMAGE_LIMITS.perMessage) });
  return out;
}

/** Queued prompts the user took back (Remove, Stop): their texts joined, their images as chips. */
export function takenBack(prompts: readonly QueuedPrompt[], draft: DraftImages): HostToWebviewMessage[] {
  const text = prompts.map((p) => p.text).filter((t) => t.trim() !== '').join('\n\n');
  return backToInput(text, prompts.flatMap((p) => p.images), draft);
}

/** A prompt's images as message content, or the notice saying why they are refused (nothing is sent). */
export function promptImages(images: readonly WireImage[] | undefined): { ok: true; images: ImageContent[] } | { ok: false; notice: string } {
  const screened = screenImages((images ?? []).map((image, i) => ({ name: `#${i + 1}`, data: image.data })));
  if (screened.refused.length > 0) {
    return { ok: false, notice: vscode.l10n.t('The message was not sent: image {0} is not a PNG, JPEG, GIF or WebP image of at most 5 MB.', screened.refused[0]!.name) };
  }
  return { ok: true, images: screened.images.map(({ mimeType, data }) => ({ type: 'image', mimeType, data })) };
}

/** The notice for a prompt with images to a model without image input. */
export function imagesUnsupportedNotice(model: string): string {
  return vscode.l10n.t('{0} does not take images. Remove the images or choose a model that reads them (Arbor: Select Model).', model);
}
