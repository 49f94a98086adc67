// The user's words in the summary text (docs/architecture.md, "What the user said"): the ledger the
// summarizer writes for messages over the budget (asked for, parsed, checked: a message it left out, or
// whose line is not grounded in the message, gets its own first words instead), and the section Arbor renders after the summarizer's checkpoint, which is
// what pi and Arbor send to the model. Pure text work.
import { BRIDGE_HEADING } from './bridge';
import { constraintsInMessage } from './constraints';
import { stripFileOperations } from './file-ops';
import { compactionPrompt } from './prompt-text';
import type { KeptMessage, LedgerLine, UserWords, UserWordsPlan } from './user-words';

const SECTION_HEADING = /^## What the User Said \(verbatim\)[ \t]*$/m;
const LEDGER_HEADING = /^## User Ledger[ \t]*$/m;
const LEGACY_KEPT_HEADING = /^## User's Words \(kept verbatim\)[ \t]*$/m;
const LEDGER_LINE = /^\s*[-*]\s*\[#(\d+)\]\s*(.+?)\s*$/;
const LEDGER_LINE_MAX = 300;
const FALLBACK_CHARS = 200;

/** `[#n]` for the n-th (1-based) message over the budget. */
function tag(index: number): string {
  return `[#${index + 1}]`;
}

/**
 * How the ledger request quotes each message: `whole`; `opening` (a summary asked as the continuation of the
 * conversation, where every message is in the cached prefix); or by opening exactly the messages whose
 * whole text is in the transcript sent with it (ids of the span's entries): quoting it again would be
 * billed again (docs/architecture.md, "Compaction cost").
 */
export type LedgerQuote = 'whole' | 'opening' | { inConversation: ReadonlySet<string> };

/** The part of the summary prompt that asks for the ledger ('' when everything fits). */
export function ledgerRequest(toLedger: readonly KeptMessage[], quote: LedgerQuote = 'whole'): string {
  if (toLedger.length === 0) return '';
  const cut = (m: KeptMessage) => m.text.length > OPENING_CHARS && (quote === 'opening' || (typeof quote === 'object' && quote.inConversation.has(m.entryId)));
  const text = (m: KeptMessage) => (cut(m) ? `${m.text.slice(0, OPENING_CHARS).trimEnd()}…` : m.text);
  const messages = toLedger.map((m, i) => `${tag(i)} ${text(m)}`).join('\n\n');
  const where = quote === 'opening' ? '(each is in the conversation, whole, where it begins as quoted) ' : toLedger.some(cut) ? SOME_BY_OPENING : '';
  return compactionPrompt('user-ledger-request', { messages, where });
}

const SOME_BY_OPENING = '(one quoted only by its opening, up to "…", is in the conversation above, whole, where it begins as quoted) ';

/** How much of a message over the budget a continuation's ledger request quotes to name it. */
const OPENING_CHARS = 120;

/** Words of three letters or more (any script), lower-cased: what grounding compares. */
function wordsIn(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? [];
}

/**
 * A ledger line must stand on its message: at least half of its words appear in it. A paraphrase keeps
 * the names, paths, ports and values it is about; a line the summarizer made up (or was steered into
 * writing by something in the transcript) does not, and the message keeps its own first words instead.
 */
export function groundedIn(line: string, message: string): boolean {
  const words = wordsIn(line);
  if (words.length === 0) return false;
  const source = new Set(wordsIn(message));
  return words.filter((w) => source.has(w)).length * 2 >= words.length;
}

/** The grounded ledger lines of an answer, by message index (see parseLedger). */
export function groundedLedger(answer: string, toLedger: readonly KeptMessage[]): Map<number, string> {
  const found = parseLedger(answer, toLedger.length);
  for (const [i, text] of found) if (!NOTHING_APPLIES.test(text) && !groundedIn(text, toLedger[i]!.text)) found.delete(i);
  return found;
}

/** "(nothing that still applies)": a valid answer for a message with nothing to keep. */
const NOTHING_APPLIES = /^\(nothing that still applies\)$/i;

/** The ledger lines a summarizer wrote, by message index; lines for unknown tags are ignored. */
export function parseLedger(answer: string, count: number): Map<number, string> {
  const found = new Map<number, string>();
  const section = sectionAfter(answer, LEDGER_HEADING);
  if (section === undefined) return found;
  for (const line of section.split('\n')) {
    const match = LEDGER_LINE.exec(line);
    const index = match ? Number(match[1]) - 1 : -1;
    if (index >= 0 && index < count && !found.has(index)) found.set(index, match![2]!.slice(0, LEDGER_LINE_MAX));
  }
  return found;
}

/** Indexes (0-based) of the messages over the budget an answer left without a grounded ledger line. */
export function missingLedgerIndexes(answer: string, toLedger: readonly KeptMessage[]): number[] {
  const found = groundedLedger(answer, toLedger);
  return toLedger.map((_, i) => i).filter((i) => !found.has(i));
}

/**
 * The corrective request for the messages a checkpoint's ledger left out: those messages alone, under
 * their own tags, and a request for their ledger lines only. A request of its own, so the correction
 * never re-sends the conversation nor has the whole checkpoint written again (docs/architecture.md,
 * "Compaction cost").
 */
export function ledgerRetryRequest(toLedger: readonly KeptMessage[], missing: readonly number[]): string {
  const messages = missing.map((i) => `${tag(i)} ${toLedger[i]!.text}`).join('\n\n');
  return compactionPrompt('ledger-retry', { tags: missing.map(tag).join(', '), messages });
}

/**
 * The checkpoint with one "## User Ledger" section holding the grounded lines of both answers (the
 * checkpoint's own first; the corrective answer's for the messages it lacked).
 */
export function mergeLedgerAnswers(answer: string, correction: string, toLedger: readonly KeptMessage[]): string {
  const lines = groundedLedger(answer, toLedger);
  for (const [i, text] of groundedLedger(correction, toLedger)) if (!lines.has(i)) lines.set(i, text);
  if (lines.size === 0) return answer;
  const rendered = [...lines.entries()].sort(([a], [b]) => a - b).map(([i, text]) => `- ${tag(i)} ${text}`);
  return `${withoutSection(answer, LEDGER_HEADING).trimEnd()}\n\n## User Ledger\n${rendered.join('\n')}`;
}

/**
 * The ledger after this compaction: the carried lines, then one line per message over the budget, the
 * summarizer's where it wrote one, else the message's own words (its classifier sentences, or its start).
 */
export function ledgerAfter(plan: UserWordsPlan, answer: string): { ledger: LedgerLine[]; fallbacks: number } {
  const written = groundedLedger(answer, plan.toLedger);
  const fresh = plan.toLedger.map((m, i): LedgerLine => {
    const text = written.get(i);
    return text !== undefined ? { entryIds: [m.entryId], text } : { entryIds: [m.entryId], text: ownWords(m), fallback: true };
  });
  return { ledger: [...plan.ledger, ...fresh], fallbacks: fresh.filter((l) => l.fallback).length };
}

function ownWords(message: KeptMessage): string {
  const flagged = constraintsInMessage(message.entryId, { role: 'user', content: message.text, timestamp: 0 }).map((c) => c.text).join(' ');
  const words = (flagged || message.text).replace(/\s+/g, ' ').trim();
  return words.length > FALLBACK_CHARS ? `${words.slice(0, FALLBACK_CHARS)}…` : words;
}

/** The section with the user's words, rendered after the checkpoint ('' when nothing is kept). */
export function renderUserWords(words: Pick<UserWords, 'verbatim' | 'ledger'>): string {
  if (words.verbatim.length === 0 && words.ledger.length === 0) return '';
  const ledger = words.ledger.length > 0 ? `${compactionPrompt('user-words-ledger', { lines: words.ledger.map((l) => `- ${l.text}`).join('\n') })}\n\n` : '';
  const messages = words.verbatim.map(renderMessage).join('\n\n');
  return compactionPrompt('user-words', { ledger, messages });
}

function renderMessage(message: KeptMessage): string {
  return compactionPrompt('user-words-message', {
    tag: message.role === 'assistant' ? 'assistant-message' : 'user-message',
    entry: message.entryId,
    pinned: message.pinned ? ' pinned="true"' : '',
    text: message.text,
  });
}

/**
 * A summary without Arbor's sections (the bridge of a background commit, the user's words), an earlier
 * kept-constraints section, the summarizer's ledger and the file blocks: what a summarizer wrote. Arbor's
 * sections are always last (before the file blocks), so the text is cut at the first of their headings;
 * the words inside them never confuse the cut.
 */
export function summarizerPart(summary: string): string {
  const cuts = [SECTION_HEADING.exec(summary)?.index, BRIDGE_HEADING.exec(summary)?.index].filter((i): i is number => i !== undefined);
  let text = cuts.length > 0 ? summary.slice(0, Math.min(...cuts)) : summary;
  text = withoutSection(withoutSection(stripFileOperations(text), LEDGER_HEADING), LEGACY_KEPT_HEADING);
  return text.trimEnd();
}

/** The summary text: the summarizer's part, then the user's words. */
export function withUserWords(summarizer: string, words: Pick<UserWords, 'verbatim' | 'ledger'>): string {
  const section = renderUserWords(words);
  return section === '' ? summarizer : `${summarizer.trimEnd()}\n\n${section}`;
}

function sectionAfter(text: string, heading: RegExp): string | undefined {
  const match = heading.exec(text);
  if (!match) return undefined;
  const rest = text.slice(match.index + match[0].length);
  const next = /^## /m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

function withoutSection(text: string, heading: RegExp): string {
  const match = heading.exec(text);
  if (!match) return text;
  const rest = text.slice(match.index + match[0].length);
  const next = /^## /m.exec(rest);
  return `${text.slice(0, match.index).trimEnd()}${next ? `\n\n${rest.slice(next.index)}` : ''}`;
}
