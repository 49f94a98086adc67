// Tool-call ids as a provider returned them are not trusted: an empty id, a 300-character one or one with
// odd characters cannot travel to the chat webview (docs/reliability.md), and duplicates within a reply
// would pair results with the wrong call. Before a reply is persisted, such ids are replaced by fresh ones,
// so the stored call, its tool result and the approval card all use the same valid id.
import { randomBytes } from 'node:crypto';
import type { AssistantMessage, ToolCall } from '../core/messages';

/** Plain ids, or the Responses API's `call_id|item_id` (pi's form, src/llm/convert-responses.ts). */
const VALID_ID = /^[A-Za-z0-9_-]{1,64}(?:\|[A-Za-z0-9_-]{1,64})?$/;

function freshId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

/** Why `id` is replaced, or undefined when it is kept. */
function idProblem(id: unknown, seen: ReadonlySet<string>): string | undefined {
  if (typeof id !== 'string' || id.length === 0) return 'empty';
  if (!VALID_ID.test(id)) return id.length > 64 ? `${id.length} characters long` : 'has characters outside [A-Za-z0-9_-]';
  return seen.has(id) ? 'a duplicate' : undefined;
}

export interface ReplacedToolCallId {
  original: string;
  replacement: string;
  reason: string;
}

/**
 * `message` with every invalid or duplicate tool-call id replaced (a copy; the input is not changed), and
 * what was replaced. A message without such ids is returned as is.
 */
export function withValidToolCallIds(message: AssistantMessage): { message: AssistantMessage; replaced: ReplacedToolCallId[] } {
  const seen = new Set<string>();
  const replaced: ReplacedToolCallId[] = [];
  const content = message.content.map((block) => {
    if (block.type !== 'toolCall') return block;
    const reason = idProblem(block.id, seen);
    if (reason === undefined) {
      seen.add(block.id);
      return block;
    }
    const replacement = freshId();
    seen.add(replacement);
    replaced.push({ original: String(block.id ?? ''), replacement, reason });
    return { ...block, id: replacement } satisfies ToolCall;
  });
  return replaced.length === 0 ? { message, replaced } : { message: { ...message, content }, replaced };
}
