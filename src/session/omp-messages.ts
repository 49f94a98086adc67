// Message roles oh-my-pi 18 stores that pi does not (`fileMention`, `pythonExecution`, `hookMessage`), turned
// into what omp sends the model, and omp's blob-store image references (`blob:sha256:…`), which hold no
// image data: they are replaced by a text placeholder instead of being sent as a broken image.
import type { ImageContent, LlmMessage, TextContent } from '../core/messages';

type Obj = Record<string, unknown>;
const BLOB_PREFIX = 'blob:sha256:';
export const BLOB_IMAGE_PLACEHOLDER = '[image stored in oh-my-pi\'s blob store; not available to Arbor]';

/** The LLM messages of an omp-only role, or undefined when the role is not one of them. */
export function ompRoleToLlm(message: Obj): LlmMessage[] | undefined {
  const timestamp = typeof message.timestamp === 'number' ? message.timestamp : 0;
  switch (message.role) {
    case 'pythonExecution':
      return message.excludeFromContext ? [] : [userText(pythonExecutionText(message), timestamp)];
    case 'hookMessage':
      return hookMessageToLlm(message, timestamp);
    case 'fileMention':
      return fileMentionToLlm(message, timestamp);
    default:
      return undefined;
  }
}

/** omp's wording for a Python cell the user ran. */
export function pythonExecutionText(message: Obj): string {
  let text = `Ran Python:\n\`\`\`python\n${String(message.code ?? '')}\n\`\`\`\n`;
  text += message.output ? `Output:\n\`\`\`\n${String(message.output)}\n\`\`\`` : '(no output)';
  const exitCode = message.exitCode;
  if (message.cancelled) text += '\n\n(execution cancelled)';
  else if (typeof exitCode === 'number' && exitCode !== 0) text += `\n\nExecution failed with code ${exitCode}`;
  return text;
}

function hookMessageToLlm(message: Obj, timestamp: number): LlmMessage[] {
  const content = message.content;
  if (typeof content === 'string') return [userText(content, timestamp)];
  if (!Array.isArray(content)) return [];
  return [{ role: 'user', content: withoutBlobImages(content as (TextContent | ImageContent)[]), timestamp }];
}

interface MentionedFile {
  path?: unknown;
  content?: unknown;
  image?: ImageContent;
}

/** Text files go in the developer slot (Arbor: a system message in place), images in a user message. */
function fileMentionToLlm(message: Obj, timestamp: number): LlmMessage[] {
  const files = Array.isArray(message.files) ? (message.files as MentionedFile[]) : [];
  const wrap = (file: MentionedFile) => {
    const inner = typeof file.content === 'string' && file.content ? `\n${file.content}\n` : '\n';
    return `<file path="${String(file.path ?? '')}">${inner}</file>`;
  };
  const textFiles = files.filter((file) => !file.image);
  const imageFiles = files.filter((file) => file.image);
  const out: LlmMessage[] = [];
  if (textFiles.length > 0) out.push({ role: 'system', content: textFiles.map(wrap).join('\n'), timestamp });
  if (imageFiles.length > 0) {
    const content: (TextContent | ImageContent)[] = [{ type: 'text', text: imageFiles.map(wrap).join('\n') }];
    for (const file of imageFiles) content.push(file.image!);
    out.push({ role: 'user', content: withoutBlobImages(content), timestamp });
  }
  return out;
}

function userText(text: string, timestamp: number): LlmMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

function isBlobImage(block: { type: string; data?: unknown }): boolean {
  return block.type === 'image' && typeof block.data === 'string' && block.data.startsWith(BLOB_PREFIX);
}

/** `content` with every blob-referenced image replaced by a text placeholder (the same array when none). */
export function withoutBlobImages<T extends { type: string }>(content: T[]): (T | TextContent)[] {
  if (!content.some((block) => isBlobImage(block))) return content;
  return content.map((block) => (isBlobImage(block) ? { type: 'text', text: BLOB_IMAGE_PLACEHOLDER } : block));
}

/** The message with blob-referenced images replaced (user, tool result), else the message itself. */
export function withoutBlobImagesIn(message: LlmMessage): LlmMessage {
  if ((message.role !== 'user' && message.role !== 'toolResult') || typeof message.content === 'string') return message;
  const content = withoutBlobImages(message.content as (TextContent | ImageContent)[]);
  return content === message.content ? message : ({ ...message, content } as LlmMessage);
}
