// Ids as the chat webview sees them. The protocol carries ids of 1…256 characters; a session file may hold
// longer ones (or an empty tool-call id). Such an id is sent as a short stable stand-in (a hash under a
// reserved prefix) and mapped back when the webview acts on it (navigate, label, fork, approve…), so the
// action still reaches the real entry. Ids that already use the prefix are mapped too, so a stand-in never
// collides with a real id. The map is a cache of inverses: the same id always gets the same stand-in.
import { createHash } from 'node:crypto';
import { LIMITS } from '../protocol/messages';

const PREFIX = 'arbor-id:';
/** How many stand-ins are remembered; past this, an action on a new one fails as "unknown entry". */
const MAX_REMEMBERED = 100_000;
const realIds = new Map<string, string>();

/** Whether the protocol carries `id` unchanged. */
export function fitsWire(id: string): boolean {
  return id.length >= 1 && id.length <= LIMITS.id && !id.startsWith(PREFIX);
}

/** The id the webview is sent for `id` (entry ids, tool-call ids). */
export function wireId(id: string): string {
  if (fitsWire(id)) return id;
  const standIn = `${PREFIX}${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
  if (realIds.size < MAX_REMEMBERED || realIds.has(standIn)) realIds.set(standIn, id);
  return standIn;
}

/** `wireId` for a nullable id (leaf ids). */
export function wireIdOrNull(id: string | null): string | null {
  return id === null ? null : wireId(id);
}

/** The real id behind an id the webview sent (itself when it is not a stand-in). */
export function realId(id: string): string {
  return realIds.get(id) ?? id;
}
