// The images of a chat's unsent draft, kept by the host for each view. The webview keeps its draft text
// in its own state, but not its chips (megabytes of base64), and VS Code re-creates a view's webview
// empty when it is hidden and shown again or moved: the host names each image it hands the composer
// (`id`), the composer reports the chips it shows after every change, and a re-created composer gets
// the ones still in the draft back (chat-controller.ts). No `vscode`: unit-tested as is.
import { IMAGE_LIMITS, type DraftImage, type ImageAttachment } from '../protocol';

export class DraftImages {
  private images: DraftImage[] = [];
  private next = 1;

  /**
   * Names `images` for the composer and keeps those that fit in the draft (a message's images at most,
   * as the composer does: the rest it refuses, and its next report drops them here anyway).
   */
  add(images: readonly ImageAttachment[]): DraftImage[] {
    const named = images.map((image) => ({ ...image, id: `i${this.next++}` }));
    this.images.push(...named.slice(0, this.room));
    return named;
  }

  /** The composer's chips now (`ids`, in its order): the draft holds only those. */
  keep(ids: readonly string[]): void {
    const byId = new Map(this.images.map((image) => [image.id, image]));
    this.images = ids.flatMap((id) => byId.get(id) ?? []);
  }

  list(): DraftImage[] {
    return [...this.images];
  }

  /** how many more images the draft takes */
  get room(): number {
    return Math.max(0, IMAGE_LIMITS.perMessage - this.images.length);
  }
}
