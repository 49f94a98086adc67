// Images shown in the chat: the data: URL of a checked image (the CSP's img-src allows data:, nothing
// else is needed), the thumbnails of a user message, and the larger view a click opens (a modal dialog;
// Escape, the close button or a click on the backdrop closes it).
import type { UserImages, WireImage } from '../../src/protocol';
import { el } from '../dom';
import { t } from '../l10n';

/** Only the four checked raster types reach here (the protocol's enum), never SVG or HTML. */
export function imageSrc(image: Pick<WireImage, 'mimeType' | 'data'>): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

let viewer: HTMLDialogElement | undefined;

function theViewer(): HTMLDialogElement {
  if (viewer) return viewer;
  const dialog = el('dialog', { class: 'image-viewer', id: 'image-viewer', 'aria-label': t('Image') }) as HTMLDialogElement;
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog || (event.target as HTMLElement).closest('.image-viewer-close')) dialog.close();
  });
  document.body.append(dialog);
  viewer = dialog;
  return dialog;
}

export function openImage(src: string, alt: string): void {
  const dialog = theViewer();
  dialog.replaceChildren(el('button', { type: 'button', class: 'image-viewer-close', 'aria-label': t('Close image') }, '×'), el('img', { src, alt }));
  dialog.showModal();
}

/** A user message's images as thumbnails (a click opens one larger), and a line for those not shown. */
export function userImagesView(images: UserImages, label = t('Images sent with this message')): HTMLElement[] {
  const list = el('ul', { class: 'message-images', 'aria-label': label },
    ...images.shown.map((image, i) => {
      const alt = t('Image {0}', i + 1);
      const button = el('button', { type: 'button', class: 'message-image', title: t('Open larger'), 'aria-label': t('Open image {0}', i + 1) }, el('img', { src: imageSrc(image), alt }));
      button.addEventListener('click', () => openImage(imageSrc(image), alt));
      return el('li', {}, button);
    }));
  const hidden = images.hidden > 0 ? [el('p', { class: 'message-images-hidden' }, images.hidden === 1 ? t('1 more image not shown') : t('{0} more images not shown', images.hidden))] : [];
  return images.shown.length > 0 ? [list, ...hidden] : hidden;
}
