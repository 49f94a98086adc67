// The keyword classifier of the user's words (docs/architecture.md, "What the user said"). It no longer
// decides what survives a compaction: every user message is kept verbatim within a budget
// (./user-words.ts). What it still does: rank which older messages fill a full budget, pick a message's
// own words for a ledger line the summarizer did not write, and read what compactions written before
// (their `details.constraints`) kept. `collectConstraints` is the old selection, kept as the baseline
// bench/user-words.mjs measures against. Pure: no model calls, no I/O.
import type { AgentMessage } from '../core/messages';
import { PIN_CUSTOM_TYPE, pinnedEntryIds } from '../session/pins';

export type KeptConstraintKind = 'constraint' | 'correction' | 'pinned';

export interface KeptConstraint {
  /** the entry the words come from */
  entryId: string;
  kind: KeptConstraintKind;
  /** the user's words, verbatim (a pinned message: its whole text, capped) */
  text: string;
}

/** Pins are `arbor.pin` custom entries (src/session/pins.ts). */
export { PIN_CUSTOM_TYPE, pinnedEntryIds };

const MAX_SENTENCE_CHARS = 400;
const MAX_PINNED_CHARS = 2_000;
/** The newest constraints win when a long session states more than this. */
const MAX_CONSTRAINTS = 60;

const CORRECTION_START = /^(no\b|nope\b|wrong\b|actually\b|that'?s not\b|that is not\b|not like that\b|not that\b|stop\b|undo\b|revert\b|don'?t do that\b)/i;
const CONSTRAINT_WORDS =
  /\b(always|never|don'?t|do not|doesn'?t|must|mustn'?t|must not|should(?:n'?t| not)?|shall not|only|avoid|make sure|ensure|prefer|instead of|rather than|no more|from now on|keep|without|remember|important|required?|forbidden|not allowed|do ?n[o']t touch|leave .{1,40} alone)\b/i;

/** "Use tabs, not spaces", "please stick to pnpm": imperatives that state a preference. */
const PREFERENCE_FORM = /^(?:please\s+)?(?:use|stick to|stay with|write|name|call|put|format)\b.*(?:,\s*not\b|\bnot\s+\w+|\binstead\b)|^(?:please\s+)?(?:use|stick to|stay with)\b/i;

/** The user's text of a message, or undefined for messages that are not the user's own words. */
function userText(message: AgentMessage): string | undefined {
  if (message.role !== 'user') return undefined;
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return undefined;
  const parts = message.content.filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string');
  return parts.length > 0 ? parts.map((b) => b.text).join('\n') : undefined;
}

/** Sentences and lines of a message, trimmed (a constraint is usually one sentence or one bullet). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((s) => s.length >= 4);
}

function classify(sentence: string, first: boolean): KeptConstraintKind | undefined {
  if (first && CORRECTION_START.test(sentence)) return 'correction';
  return CONSTRAINT_WORDS.test(sentence) || PREFERENCE_FORM.test(sentence) ? 'constraint' : undefined;
}

/** Explicit constraints and corrections in one user message, verbatim. */
export function constraintsInMessage(entryId: string, message: AgentMessage): KeptConstraint[] {
  const text = userText(message);
  if (text === undefined) return [];
  const found: KeptConstraint[] = [];
  sentencesOf(text).forEach((sentence, index) => {
    const kind = classify(sentence, index === 0);
    if (kind && sentence.length <= MAX_SENTENCE_CHARS) found.push({ entryId, kind, text: sentence });
  });
  return found;
}

function pinnedConstraint(entryId: string, message: AgentMessage): KeptConstraint | undefined {
  const text = userText(message) ?? assistantText(message);
  if (text === undefined || text.trim() === '') return undefined;
  return { entryId, kind: 'pinned', text: text.trim().slice(0, MAX_PINNED_CHARS) };
}

function assistantText(message: AgentMessage): string | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/**
 * What must survive this compaction: the previous compaction's kept constraints (carried forward), then
 * those of the messages being summarized, newest last, without duplicates; capped to the newest
 * MAX_CONSTRAINTS (pinned messages are never dropped by the cap).
 */
export function collectConstraints(
  previous: readonly KeptConstraint[],
  span: readonly { id: string; message: AgentMessage }[],
  pinned: ReadonlySet<string>,
): KeptConstraint[] {
  // A message unpinned since the previous compaction is no longer kept for being pinned.
  const all = previous.filter((c) => c.kind !== 'pinned' || pinned.has(c.entryId));
  for (const { id, message } of span) {
    if (pinned.has(id)) {
      const pin = pinnedConstraint(id, message);
      if (pin) all.push(pin);
    } else all.push(...constraintsInMessage(id, message));
  }
  return capConstraints(dedupe(all));
}

function dedupe(constraints: readonly KeptConstraint[]): KeptConstraint[] {
  const seen = new Set<string>();
  return constraints.filter((c) => {
    const key = `${c.entryId}\u0000${normalizeForMatch(c.text)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function capConstraints(constraints: KeptConstraint[]): KeptConstraint[] {
  const ordinary = constraints.filter((c) => c.kind !== 'pinned');
  if (ordinary.length <= MAX_CONSTRAINTS) return constraints;
  const dropped = new Set(ordinary.slice(0, ordinary.length - MAX_CONSTRAINTS));
  return constraints.filter((c) => !dropped.has(c));
}

/** Case, white space, quotes and trailing punctuation do not matter when checking a summary. */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”„"`'’‘]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?;:,]+$/, '')
    .trim();
}

/** The constraints a summary does not contain verbatim. */
export function missingConstraints(summary: string, constraints: readonly KeptConstraint[]): KeptConstraint[] {
  const haystack = normalizeForMatch(summary);
  return constraints.filter((c) => !haystack.includes(normalizeForMatch(c.text)));
}

/** Previously kept constraints from a compaction's details (only Arbor-generated details are trusted). */
export function constraintsFromDetails(details: unknown, fromHook: boolean | undefined): KeptConstraint[] {
  if (fromHook || details === null || typeof details !== 'object') return [];
  const raw = (details as { constraints?: unknown }).constraints;
  return Array.isArray(raw) ? raw.filter(isKeptConstraint) : [];
}

function isKeptConstraint(value: unknown): value is KeptConstraint {
  const c = value as Partial<KeptConstraint> | null;
  return (
    typeof c === 'object' && c !== null && typeof c.entryId === 'string' && typeof c.text === 'string' &&
    (c.kind === 'constraint' || c.kind === 'correction' || c.kind === 'pinned')
  );
}
