// A text block's `textSignature` for the OpenAI Responses API: the output message's item id and its
// `phase` (`commentary` before tool calls, `final_answer` at the end), which the model expects back.
// Stored as pi 1.5/1.6 store it, `{"v":1,"id":"msg_…","phase":"…"}`; older files (and Arbor before
// this form) hold the bare id. See docs/architecture.md "OpenAI Responses".

export type MessagePhase = 'commentary' | 'final_answer';

export interface TextSignature {
  id: string;
  phase?: MessagePhase;
}

/** The API refuses item ids over 64 characters; a longer one is not sent at all. */
const MAX_ITEM_ID = 64;
const ITEM_ID = /^[A-Za-z0-9_-]+$/;

function isPhase(value: unknown): value is MessagePhase {
  return value === 'commentary' || value === 'final_answer';
}

export function encodeTextSignature(id: string, phase: unknown): string {
  return JSON.stringify(isPhase(phase) ? { v: 1, id, phase } : { v: 1, id });
}

function parseJsonForm(signature: string): TextSignature | undefined {
  try {
    const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
    if (parsed?.v !== 1 || typeof parsed.id !== 'string') return undefined;
    return isPhase(parsed.phase) ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
  } catch {
    return undefined;
  }
}

/** The id and phase a stored textSignature names, or undefined when it names no id the API accepts. */
export function parseTextSignature(signature: unknown): TextSignature | undefined {
  if (typeof signature !== 'string' || !signature) return undefined;
  const parsed = signature.startsWith('{') ? parseJsonForm(signature) : { id: signature };
  if (!parsed || parsed.id.length > MAX_ITEM_ID || !ITEM_ID.test(parsed.id)) return undefined;
  return parsed;
}
