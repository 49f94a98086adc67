// Images in the composer: pasted (clipboard), dropped (files) or picked (*Attach image*, the host's file
// picker). Each file is read and checked here (src/protocol/images.ts: the type by its bytes, the size
// cap) and again by the host, whose `imagesAttached` answer (passed on by main.ts as an
// `arbor:imagesAttached` event) adds the chips: a thumbnail, the name and a remove (×) button. Sending
// takes the images with the prompt. Chips are not saved with the webview's state (they can be megabytes):
// the host keeps them (src/vscode/draft-images.ts), told after every change which chips are shown, and
// gives them back to a re-created webview (`restoreDraftImages`, passed on by main.ts as an event).
import { checkImage, IMAGE_LIMITS, type DraftImage, type ImageProblem, type ScreenedImages, type WebviewToHostMessage, type WireImage } from '../../src/protocol';
import { el } from '../dom';
import { icon } from '../icons';
import { imageSrc } from './image-view';
import { t } from '../l10n';

export interface ImageAttachments {
  /** the chips' row, shown above the input */
  chips: HTMLElement;
  /** *Attach image* */
  button: HTMLElement;
  count(): number;
  /** the attached images, removed from the composer (on send) */
  take(): WireImage[];
  /** chips to add (a queued prompt's images taken back); those beyond a message's images are refused */
  add(images: readonly DraftImage[]): void;
}

export interface ImagesAttachedEvent {
  images: DraftImage[];
  refused: { name: string; problem: ImageProblem }[];
}

const MB = IMAGE_LIMITS.maxBytes / (1024 * 1024);

/** Why an image was not attached, in the user's words. */
export function imageProblemText(name: string, problem: ImageProblem): string {
  if (problem === 'tooLarge') return t('{0} was not attached: an image may have at most {1} MB.', name, MB);
  if (problem === 'tooMany') return t('{0} was not attached: a message carries at most {1} images.', name, IMAGE_LIMITS.perMessage);
  return t('{0} was not attached: it is not a PNG, JPEG, GIF or WebP image.', name);
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/** The files checked here: the ones to send to the host and the ones refused at once. */
async function screenFiles(files: readonly File[], room: number): Promise<ScreenedImages> {
  const out: ScreenedImages = { images: [], refused: [] };
  for (const file of files) {
    const name = file.name || t('pasted image');
    if (out.images.length >= room) out.refused.push({ name, problem: 'tooMany' });
    else if (file.size > IMAGE_LIMITS.maxBytes) out.refused.push({ name, problem: 'tooLarge' });
    else {
      const check = checkImage({ data: await readBase64(file).catch(() => '') });
      if (check.ok) out.images.push({ name, ...check.image });
      else out.refused.push({ name, problem: check.problem });
    }
  }
  return out;
}

function imageFiles(list: DataTransferItemList | undefined): File[] {
  return [...(list ?? [])].flatMap((item) => (item.kind === 'file' ? [item.getAsFile()].filter((f): f is File => f !== null) : []));
}

/** `changed` runs after every change of the chips (the composer enables Send for images alone). */
export function installImageAttachments(dropZone: HTMLElement, input: HTMLElement, post: (message: WebviewToHostMessage) => void, notify: (text: string) => void, changed: () => void): ImageAttachments {
  let attached: DraftImage[] = [];
  const chips = el('ul', { class: 'image-chips', id: 'image-chips', 'aria-label': t('Images to send'), hidden: true });
  const button = el('button', { type: 'button', class: 'icon-btn attach-image', id: 'attach-image', title: t('Attach image'), 'aria-label': t('Attach image') }, icon('image'));

  const render = () => {
    chips.hidden = attached.length === 0;
    chips.replaceChildren(...attached.map((image, i) => el('li', { class: 'image-chip', title: image.name },
      el('img', { src: imageSrc(image), alt: image.name }),
      el('span', { class: 'image-chip-name' }, image.name),
      el('button', { type: 'button', class: 'image-chip-remove', 'data-remove-image': String(i), 'aria-label': t('Remove image {0}', image.name), title: t('Remove') }, '×'))));
    post({ type: 'draftImages', ids: attached.map((image) => image.id) });
    changed();
  };
  const refuse = (refused: ImagesAttachedEvent['refused']) => refused.forEach((r) => notify(imageProblemText(r.name, r.problem)));
  const add = async (files: File[]) => {
    const screened = await screenFiles(files, IMAGE_LIMITS.perMessage - attached.length);
    refuse(screened.refused);
    if (screened.images.length > 0) post({ type: 'attachImages', images: screened.images });
  };

  input.addEventListener('paste', (event: ClipboardEvent) => {
    // copied text that also comes as a picture (cells from a spreadsheet, a Word paragraph) pastes as text
    if (event.clipboardData?.getData('text/plain')) return;
    const files = imageFiles(event.clipboardData?.items);
    if (files.length === 0) return;
    event.preventDefault();
    void add(files);
  });
  dropZone.addEventListener('dragover', (event: DragEvent) => {
    if ([...(event.dataTransfer?.types ?? [])].includes('Files')) event.preventDefault();
  });
  dropZone.addEventListener('drop', (event: DragEvent) => {
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void add(files);
  });
  button.addEventListener('click', () => post({ type: 'pickImages' }));
  chips.addEventListener('click', (event) => {
    const remove = (event.target as HTMLElement).closest<HTMLElement>('[data-remove-image]');
    if (!remove) return;
    attached = attached.filter((_, i) => i !== Number(remove.dataset.removeImage));
    render();
    input.focus();
  });
  const append = (images: readonly DraftImage[], refused: ImagesAttachedEvent['refused']) => {
    const room = Math.max(0, IMAGE_LIMITS.perMessage - attached.length);
    refuse([...refused, ...images.slice(room).map((i) => ({ name: i.name, problem: 'tooMany' as const }))]);
    attached = [...attached, ...images.slice(0, room)];
    render();
  };
  window.addEventListener('arbor:imagesAttached', (event) => {
    const { images, refused } = (event as CustomEvent<ImagesAttachedEvent>).detail;
    append(images, refused);
  });
  window.addEventListener('arbor:restoreDraftImages', (event) => {
    attached = (event as CustomEvent<DraftImage[]>).detail.slice(0, IMAGE_LIMITS.perMessage);
    render();
  });

  return {
    chips,
    button,
    count: () => attached.length,
    take() {
      const images = attached.map(({ mimeType, data }) => ({ mimeType, data }));
      attached = [];
      render();
      return images;
    },
    add(images) {
      if (images.length > 0) append(images, []);
    },
  };
}

/**
 * Whether a prompt with `count` images may go to the current model: one without image input gets a
 * notice instead (the text and the chips stay in the composer). The host checks again (ArborApp.prompt).
 */
export function imagesAllowed(store: { state?: { models?: { key: string; label: string; images?: boolean }[]; currentModelKey?: string | null } | undefined }, count: number, notify: (text: string) => void): boolean {
  if (count === 0) return true;
  const model = store.state?.models?.find((m) => m.key === store.state?.currentModelKey);
  if (!model || model.images) return true;
  notify(t('{0} does not take images. Remove them, or choose a model that reads images.', model.label));
  return false;
}
