// Which models take images, and what a model without image input is sent instead of an image block: a
// short text note, so a session that holds images (pasted earlier, or returned by the read tool) still
// goes to a text-only model without a provider error. Prompts with new images are refused earlier, with
// a notice (ArborApp.prompt), so the user knows the model would not see them.
import type { ImageContent, LlmMessage, TextContent } from '../core/messages';
import type { ModelInfo } from './types';

/** What stands in for an image sent to a model that cannot see it. */
export const IMAGE_OMITTED = '[image omitted: this model does not take images]';

/** The model's descriptor says it reads images (`images: true`; absent = no). */
export function takesImages(model: Pick<ModelInfo, 'images'>): boolean {
  return model.images === true;
}

type Blocks = (TextContent | ImageContent)[];

function textOnly(content: Blocks): Blocks {
  return content.map((block) => (block.type === 'image' ? { type: 'text', text: IMAGE_OMITTED } : block));
}

function hasImage(message: LlmMessage): boolean {
  return (message.role === 'user' || message.role === 'toolResult') && typeof message.content !== 'string' && message.content.some((b) => b.type === 'image');
}

/** `messages` as `model` can take them: unchanged for a model with image input, else images become a note. */
export function imagesFor(model: Pick<ModelInfo, 'images'>, messages: LlmMessage[]): LlmMessage[] {
  if (takesImages(model) || !messages.some(hasImage)) return messages;
  return messages.map((m) => (hasImage(m) ? ({ ...m, content: textOnly(m.content as Blocks) } as LlmMessage) : m));
}
