// The host half of images in the chat's composer: what the webview pasted or dropped is checked
// (src/protocol/images.ts: the type by its bytes, the size cap, the count) and answered with the chips to
// add; *Attach image* opens the editor's file picker; a prompt's images are checked again before they go
// to the model, and a model without image input gets a notice instead of the prompt.
import * as vscode from 'vscode';
import type { ImageContent } from '../core/messages';
import { IMAGE_EXTENSIONS, IMAGE_LIMITS, screenImages, type HostToWebviewMessage, type ImageAttachment, type ScreenedImages, type WireImage } from '../protocol';

/** The answer to `attachImages` / `pickImages`: the chips to add and the files refused (the webview says why). */
export function imagesAttached(screened: ScreenedImages): HostToWebviewMessage {
  return { type: 'imagesAttached', images: screened.images, refused: screened.refused.slice(0, 100) };
}

/** paste / drop: the webview read the files, the host judges them */
export function attachImages(images: readonly ImageAttachment[]): HostToWebviewMessage {
  return imagesAttached(screenImages(images));
}

async function readPicked(uri: vscode.Uri): Promise<{ name: string; data: string } | { name: string; tooLarge: true }> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const { size } = await vscode.workspace.fs.stat(uri);
  if (size > IMAGE_LIMITS.maxBytes) return { name, tooLarge: true };
  return { name, data: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64') };
}

/** *Attach image*: the file picker (PNG/JPEG/GIF/WebP); undefined when the user cancelled it. */
export async function pickImages(): Promise<HostToWebviewMessage | undefined> {
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Attach'),
    title: vscode.l10n.t('Attach images'),
    filters: { [vscode.l10n.t('Images')]: [...IMAGE_EXTENSIONS] },
  });
  if (!uris?.length) return undefined;
  const files = await Promise.all(uris.map(readPicked));
  const screened = screenImages(files.flatMap((f) => ('data' in f ? [f] : [])));
  for (const f of files) if (!('data' in f)) screened.refused.push({ name: f.name, problem: 'tooLarge' });
  return imagesAttached(screened);
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
