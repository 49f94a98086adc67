// What the user typed survives compaction by construction (docs/architecture.md, "What the user said"):
// every user message of the summarized span, and every pinned message, is kept word for word, newest
// first within a token budget, and carried from one compaction to the next in `details.userWords`.
// Only what does not fit is summarised, into a ledger the summarizer writes (./user-ledger.ts). The old
// keyword classifier (./constraints.ts) only ranks which older messages fill the budget once it is full.
// Pure: no model calls, no I/O.
import type { AgentMessage } from '../core/messages';
import { compactionPrompt } from './prompt-text';
import { constraintsInMessage, constraintsFromDetails } from './constraints';

/** One message kept word for word (a long paste: its first and last lines around a marker). */
export interface KeptMessage {
  entryId: string;
  role: 'user' | 'assistant';
  pinned?: boolean;
  text: string;
  /** what a long paste lost: lines and characters left out */
  elided?: { lines: number; chars: number };
}

/** A summarizer's line about messages that no longer fit the budget (or Arbor's fallback when it wrote none). */
export interface LedgerLine {
  entryIds: string[];
  text: string;
  /** the summarizer left this message out twice; the line is the message's own first words */
  fallback?: boolean;
}

/** `details.userWords` of a compaction: what it kept, carried on by the next one. */
export interface UserWords {
  version: 1;
  budgetTokens: number;
  /** oldest first */
  verbatim: KeptMessage[];
  /** oldest first */
  ledger: LedgerLine[];
  /** ledger lines dropped (oldest first) because even the ledger outgrew its share */
  ledgerDropped?: number;
}

/** What a compaction will keep: decided before the summarizer runs. */
export interface UserWordsPlan {
  budgetTokens: number;
  verbatim: KeptMessage[];
  /** messages that no longer fit: the summarizer writes a ledger line for each */
  toLedger: KeptMessage[];
  /** ledger lines of earlier compactions, kept as they are */
  ledger: LedgerLine[];
  ledgerDropped: number;
}

/** Codex keeps this much of the user's recent messages; Arbor takes it unless the window is small. */
export const USER_WORDS_MAX_TOKENS = 20_000;
/** ...and never more than this share of the model's window, so a compaction of a small window still frees room. */
export const USER_WORDS_WINDOW_SHARE = 0.1;
/** The ledger may take this share of the budget (but at least LEDGER_MIN_TOKENS); older lines are dropped beyond it. */
const LEDGER_SHARE = 0.25;
const LEDGER_MIN_TOKENS = 256;
/** A message longer than this is a paste: its first and last lines are kept. */
export const PASTE_MAX_CHARS = 6_000;
const PASTE_HEAD_CHARS = 2_000;
const PASTE_TAIL_CHARS = 1_000;
/** A pinned paste is kept whole up to three times as long (18,000 characters, within what the chat shows). */
const PINNED_PASTE_FACTOR = 3;
/** The wrapper around each kept message, counted with it. */
const WRAPPER_CHARS = 48;

/** The budget for a model with this window (unknown window: the full budget). */
export function userWordsBudget(contextWindow: number | undefined): number {
  if (!contextWindow || contextWindow <= 0) return USER_WORDS_MAX_TOKENS;
  return Math.max(1, Math.min(USER_WORDS_MAX_TOKENS, Math.floor(contextWindow * USER_WORDS_WINDOW_SHARE)));
}

/** pi's chars/4 rule, with the wrapper each message gets. */
export function keptTokens(message: Pick<KeptMessage, 'text'>): number {
  return Math.ceil((message.text.length + WRAPPER_CHARS) / 4);
}

/** The text of a user message (or, for a pinned one, an assistant message); undefined when it has none. */
export function wordsOf(message: AgentMessage): { role: 'user' | 'assistant'; text: string } | undefined {
  if (message.role === 'user') {
    const text = typeof message.content === 'string' ? message.content : textBlocks(message.content);
    return text.trim() === '' ? undefined : { role: 'user', text };
  }
  if (message.role !== 'assistant') return undefined;
  const text = textBlocks(message.content);
  return text.trim() === '' ? undefined : { role: 'assistant', text };
}

function textBlocks(content: readonly { type: string; text?: unknown }[]): string {
  if (!Array.isArray(content)) return '';
  return content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('\n');
}

/** A long paste kept as its first and last lines with a marker saying how much is left out; short text as is. */
export function elidePaste(text: string, maxChars = PASTE_MAX_CHARS): { text: string; elided?: KeptMessage['elided'] } {
  if (text.length <= maxChars) return { text };
  const lines = text.split('\n');
  const head = takeLines(lines, PASTE_HEAD_CHARS, 'head');
  const tail = takeLines(lines.slice(head.count), PASTE_TAIL_CHARS, 'tail');
  const keptChars = head.text.length + tail.text.length;
  const elided = { lines: Math.max(0, lines.length - head.count - tail.count), chars: text.length - keptChars };
  const marker = compactionPrompt('elided-paste', { lines: elided.lines.toLocaleString('en-US'), chars: elided.chars.toLocaleString('en-US') });
  return { text: [head.text, marker, tail.text].filter((part) => part !== '').join('\n'), elided };
}

/** Whole lines from one end up to `budget` characters (a first line longer than that is cut). */
function takeLines(lines: readonly string[], budget: number, end: 'head' | 'tail'): { text: string; count: number } {
  const ordered = end === 'head' ? lines : [...lines].reverse();
  const taken: string[] = [];
  let used = 0;
  for (const line of ordered) {
    if (used + line.length + 1 > budget) {
      if (taken.length === 0) taken.push(end === 'head' ? line.slice(0, budget) : line.slice(-budget));
      break;
    }
    taken.push(line);
    used += line.length + 1;
  }
  return { text: (end === 'head' ? taken : taken.reverse()).join('\n'), count: taken.length };
}

/** The kept form of one message of the span, or undefined when it is not kept (tool traffic, no text). */
export function keptMessageOf(entryId: string, message: AgentMessage, pinned: boolean): KeptMessage | undefined {
  const words = wordsOf(message);
  if (!words || (words.role === 'assistant' && !pinned)) return undefined;
  const shortened = elidePaste(words.text, pinned ? PASTE_MAX_CHARS * PINNED_PASTE_FACTOR : PASTE_MAX_CHARS);
  return { entryId, role: words.role, ...(pinned ? { pinned: true } : {}), text: shortened.text, ...(shortened.elided ? { elided: shortened.elided } : {}) };
}

/**
 * What this compaction keeps: the messages carried from the previous compaction, then the span's, each
 * once; pinned ones always; the rest newest first while they fit, then (budget full) the older ones the
 * classifier flags, then any other that still fits. What is left goes to the ledger.
 */
export function planUserWords(
  carried: UserWords | undefined,
  span: readonly { id: string; message: AgentMessage }[],
  pinned: ReadonlySet<string>,
  budgetTokens: number,
): UserWordsPlan {
  const fresh = span.flatMap(({ id, message }) => keptMessageOf(id, message, pinned.has(id)) ?? []);
  const all = dedupe([...(carried?.verbatim ?? []).map((m) => repin(m, pinned)), ...fresh]);
  const ledger = capLedger(carried?.ledger ?? [], budgetTokens);
  const room = budgetTokens - ledgerTokens(ledger.lines);
  const keep = chooseVerbatim(all, room);
  return {
    budgetTokens,
    verbatim: all.filter((m) => keep.has(m)),
    toLedger: all.filter((m) => !keep.has(m)),
    ledger: ledger.lines,
    ledgerDropped: (carried?.ledgerDropped ?? 0) + ledger.dropped,
  };
}

/** A carried message is pinned exactly when the path pins it now (an unpin since the last compaction counts). */
function repin(message: KeptMessage, pinned: ReadonlySet<string>): KeptMessage {
  const { pinned: _was, ...rest } = message;
  return pinned.has(message.entryId) ? { ...rest, pinned: true } : rest;
}

function dedupe(messages: readonly KeptMessage[]): KeptMessage[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    const key = `${m.entryId}\u0000${m.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function chooseVerbatim(all: readonly KeptMessage[], budget: number): Set<KeptMessage> {
  const keep = new Set(all.filter((m) => m.pinned));
  let left = budget - [...keep].reduce((sum, m) => sum + keptTokens(m), 0);
  const ordinary = all.filter((m) => !m.pinned);
  let i = ordinary.length - 1;
  for (; i >= 0 && keptTokens(ordinary[i]!) <= left; i--) {
    keep.add(ordinary[i]!);
    left -= keptTokens(ordinary[i]!);
  }
  const older = ordinary.slice(0, i + 1).reverse();
  for (const message of [...older.filter(isFlagged), ...older.filter((m) => !isFlagged(m))]) {
    if (keptTokens(message) > left) continue;
    keep.add(message);
    left -= keptTokens(message);
  }
  return keep;
}

/** The classifier's only remaining role: a message it flags as a constraint ranks first once the budget is full. */
function isFlagged(message: KeptMessage): boolean {
  return constraintsInMessage(message.entryId, { role: 'user', content: message.text, timestamp: 0 }).length > 0;
}

export function ledgerTokens(lines: readonly LedgerLine[]): number {
  return lines.reduce((sum, line) => sum + Math.ceil((line.text.length + 24) / 4), 0);
}

/** The newest ledger lines that fit the ledger's share of the budget. */
export function capLedger(lines: readonly LedgerLine[], budgetTokens: number): { lines: LedgerLine[]; dropped: number } {
  const cap = Math.max(LEDGER_MIN_TOKENS, Math.floor(budgetTokens * LEDGER_SHARE));
  const kept: LedgerLine[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const cost = ledgerTokens([lines[i]!]);
    if (used + cost > cap) break;
    kept.unshift(lines[i]!);
    used += cost;
  }
  return { lines: kept, dropped: lines.length - kept.length };
}

/**
 * What a compaction's details carry forward (only Arbor-written details are trusted). A compaction made
 * before this design kept classifier sentences (`details.constraints`): those are carried as kept words.
 */
export function userWordsFromDetails(details: unknown, fromHook: boolean | undefined): UserWords | undefined {
  if (fromHook || !isRecord(details)) return undefined;
  const raw = details.userWords;
  if (isRecord(raw) && Array.isArray(raw.verbatim) && Array.isArray(raw.ledger)) {
    return {
      version: 1,
      budgetTokens: typeof raw.budgetTokens === 'number' ? raw.budgetTokens : USER_WORDS_MAX_TOKENS,
      verbatim: raw.verbatim.filter(isKeptMessage),
      ledger: raw.ledger.filter(isLedgerLine),
      ...(typeof raw.ledgerDropped === 'number' ? { ledgerDropped: raw.ledgerDropped } : {}),
    };
  }
  const legacy = constraintsFromDetails(details, fromHook);
  if (legacy.length === 0) return undefined;
  const verbatim = legacy.map((c) => ({ entryId: c.entryId, role: 'user' as const, ...(c.kind === 'pinned' ? { pinned: true } : {}), text: c.text }));
  return { version: 1, budgetTokens: USER_WORDS_MAX_TOKENS, verbatim, ledger: [] };
}

function isKeptMessage(value: unknown): value is KeptMessage {
  return isRecord(value) && typeof value.entryId === 'string' && typeof value.text === 'string' && (value.role === 'user' || value.role === 'assistant');
}

function isLedgerLine(value: unknown): value is LedgerLine {
  return isRecord(value) && typeof value.text === 'string' && Array.isArray(value.entryIds) && value.entryIds.every((id) => typeof id === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
