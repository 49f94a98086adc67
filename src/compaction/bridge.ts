// The bridge of a background compaction (docs/architecture.md, "Background compaction"): what arrived while
// the summary was written and lies before the cut a foreground compaction makes now, put into the summary
// text shortened, with no model call. The user's (and pinned) messages stay word for word (long pastes
// elided as in the user's words); assistant text, tool calls and results become one line each within a
// budget of a tenth of keepRecentTokens, the oldest dropped first. Nothing in it can read as one of
// Arbor's headings or tags: every line the session wrote is escaped (`inert`). Pure text work.
import type { AgentMessage } from '../core/messages';
import { compactionPrompt } from './prompt-text';
import { keptMessageOf } from './user-words';

/** The bridge's share of keepRecentTokens for the shortened steps (the user's messages are outside it). */
export const BRIDGE_SHARE = 0.1;
/** The heading the section starts with (prompts/compaction/bridge.md). */
export const BRIDGE_HEADING = /^## Since This Summary Was Written[ \t]*$/m;
const LINE_MIN_CHARS = 60;
const LINE_MAX_CHARS = 240;
const ARGUMENT_CHARS = 80;

export interface BridgeEntry {
  id: string;
  message: AgentMessage;
  pinned: boolean;
}

/** One rendered line or message; `step` lines are shortened and count against the budget. */
interface Piece {
  text: string;
  step: boolean;
}

/** The section ('' when nothing is bridged). `budgetTokens`: the steps' budget (chars/4). */
export function renderBridge(entries: readonly BridgeEntry[], budgetTokens: number): string {
  const lineChars = Math.max(LINE_MIN_CHARS, Math.min(LINE_MAX_CHARS, Math.floor((budgetTokens * 4) / 8)));
  const pieces = entries.flatMap((entry) => piecesOf(entry, lineChars));
  if (pieces.length === 0) return '';
  return compactionPrompt('bridge', { lines: withinBudget(pieces, budgetTokens * 4).join('\n') });
}

/** The oldest step lines are dropped until the rest fit, with one line saying how many. */
function withinBudget(pieces: readonly Piece[], budgetChars: number): string[] {
  let used = pieces.filter((p) => p.step).reduce((sum, p) => sum + p.text.length + 1, 0);
  let dropped = 0;
  const kept = pieces.filter((p) => {
    if (!p.step || used <= budgetChars) return true;
    used -= p.text.length + 1;
    dropped++;
    return false;
  });
  const lines = kept.map((p) => p.text);
  return dropped > 0 ? [compactionPrompt('bridge-omitted', { count: String(dropped) }), ...lines] : lines;
}

function piecesOf(entry: BridgeEntry, lineChars: number): Piece[] {
  const kept = keptMessageOf(entry.id, entry.message, entry.pinned);
  if (kept && (kept.role === 'user' || entry.pinned)) return [{ text: wordForWord(entry.id, kept.role, entry.pinned, kept.text), step: false }];
  return stepLines(entry.message).map((line) => ({ text: `- ${oneLine(line, lineChars)}`, step: true }));
}

function wordForWord(id: string, role: 'user' | 'assistant', pinned: boolean, text: string): string {
  const tag = role === 'assistant' ? 'assistant-message' : 'user-message';
  return compactionPrompt('user-words-message', { tag, entry: inert(id), pinned: pinned ? ' pinned="true"' : '', text: inert(text) });
}

/** The shortened lines of one message: what it said or did, never its whole text. */
function stepLines(message: AgentMessage): string[] {
  switch (message.role) {
    case 'assistant':
      return message.content.flatMap((b) => (b.type === 'text' ? [`assistant: ${firstSentence(b.text)}`] : b.type === 'toolCall' ? [`called ${b.name}${mainArgument(b.arguments)}`] : []));
    case 'toolResult':
      return [`${message.toolName} ${message.isError ? 'failed' : 'returned'}: ${firstLineWithCount(contentText(message.content))}`];
    case 'bashExecution':
      return [`ran \`${message.command}\` (exit ${message.exitCode ?? '?'}): ${firstLineWithCount(message.output)}`];
    case 'user':
    case 'custom':
      return [`${message.role}: ${contentText(message.content)}`];
    case 'branchSummary':
    case 'compactionSummary':
      return [`${message.role}: ${firstSentence(message.summary)}`];
    default:
      return [`${message.role}: ${contentText(message.content)}`];
  }
}

function contentText(content: string | readonly { type: string; text?: unknown }[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : b.type === 'image' ? '[image]' : '')).filter(Boolean).join(' ');
}

/** The first sentence (or line) of a text. */
function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const end = /[.!?](\s|$)/.exec(line);
  return end ? line.slice(0, end.index + 1) : line;
}

function firstLineWithCount(text: string): string {
  const lines = text.trim().split('\n');
  return lines.length > 1 ? `${lines[0]} (${lines.length} lines)` : (lines[0] ?? '');
}

/** A call's main argument (its path, command or first string), capped: `(src/a.ts)`. */
function mainArgument(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const record = args as Record<string, unknown>;
  const value = ['path', 'file_path', 'command', 'pattern', 'query', 'url'].map((k) => record[k]).find((v) => typeof v === 'string') ?? Object.values(record).find((v) => typeof v === 'string');
  return typeof value === 'string' ? `(${cap(value.replace(/\s+/g, ' '), ARGUMENT_CHARS)})` : '';
}

/** One line of at most `max` characters, whitespace collapsed, made inert. */
function oneLine(text: string, max: number): string {
  return inert(cap(text.replace(/\s+/g, ' ').trim(), max));
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Text the session wrote, unable to pose as Arbor's: a line starting with `#` is escaped (`\#`, so no
 * heading of the summary, the ledger or the user's words can be forged), and the tags Arbor's sections and
 * the file lists use lose their `<`.
 */
export function inert(text: string): string {
  return text
    .replace(/^([ \t]*)#/gm, '$1\\#')
    .replace(/<(\/?)(read-files|modified-files|user-message|assistant-message|summary)\b/gi, '&lt;$1$2');
}

/** The bridge section of a summary text ('' when none): from its heading to the user's words or the file lists. */
export function bridgeSectionOf(summary: string): string {
  const start = BRIDGE_HEADING.exec(summary);
  if (!start) return '';
  const rest = summary.slice(start.index);
  const end = /\n(?:## |<read-files>|<modified-files>)/.exec(rest.slice(1));
  return (end ? rest.slice(0, end.index + 1) : rest).trimEnd();
}
