// Where the leaf goes when the user picks an entry (docs/pi-compatibility.md "Branch summaries"). Picking a message the user
// wrote means "edit and resend it": the leaf goes to its parent and the text comes back for the editor,
// so sending creates a sibling branch and the old one stays in the tree; its images come back with it.
import { contentText, type ImageContent } from '../core/messages';
import type { SessionEntry } from '../session/entries';

export interface NavigationTarget {
  /** the new leaf; null = before the first entry (the target was a root user message) */
  newLeafId: string | null;
  /** text to put back in the editor (user and custom messages) */
  editorText?: string;
  /** the user message's images, to put back as the composer's chips (the host checks them again) */
  editorImages?: ImageContent[];
}

function imagesOf(content: string | readonly { type: string }[]): ImageContent[] {
  return typeof content === 'string' ? [] : content.filter((b): b is ImageContent => b.type === 'image');
}

function parentOf(entry: SessionEntry): string | null {
  // A self-parented entry is a root (the store treats it so), so its "parent" is before the first entry.
  return entry.parentId === entry.id ? null : entry.parentId;
}

export function resolveNavigationTarget(target: SessionEntry): NavigationTarget {
  if (target.type === 'message' && target.message.role === 'user') {
    const images = imagesOf(target.message.content);
    return { newLeafId: parentOf(target), editorText: contentText(target.message.content), ...(images.length > 0 ? { editorImages: images } : {}) };
  }
  if (target.type === 'custom_message') {
    return { newLeafId: parentOf(target), editorText: contentText(target.content) };
  }
  return { newLeafId: target.id };
}
