// Small text formatters shared by render modules.
import { lineCount, visibleString } from './visible-text';
import type { ChatState, ToolEffectKind, ToolOriginView } from '../src/protocol';

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`;
  return String(Math.round(n));
}

export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

export function firstLine(text: string, max = 120): string {
  const line = text.trimStart().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function formatTime(ms: number): string {
  if (!ms) return '';
  const date = new Date(ms);
  return date.toLocaleString(undefined, { hour: '2-digit', minute: '2-digit', month: 'short', day: 'numeric' });
}

/**
 * The argument that says what a tool call does: its path, command or pattern, as one line with hidden
 * characters badged and any further lines announced ("+1 line"), so the summary never hides silently.
 */
export function keyArgument(args: Record<string, unknown>): string {
  for (const key of ['path', 'command', 'pattern', 'query', 'file', 'url']) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return oneLineSummary(value, 160);
  }
  return '';
}

function oneLineSummary(value: string, max: number): string {
  const text = value.trimStart();
  const more = lineCount(text.trimEnd()) - 1;
  const line = visibleString(text.split('\n', 1)[0] ?? '');
  const shown = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return more > 0 ? `${shown} … (+${more} line${more === 1 ? '' : 's'})` : shown;
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/** The chat header's title: the session's name (or first message); a file name says nothing to the user. */
export function sessionTitle(state: ChatState): string {
  return state.sessionName || 'New session';
}

/** "writes files" / "runs a command" / "from MCP server X": what the card says about the tool; '' for a built-in reader. */
export function toolTraitsText(call: { effect?: ToolEffectKind; origin?: ToolOriginView }): string {
  const outside = call.origin !== undefined && call.origin.kind !== 'builtin';
  const effect =
    call.effect === 'writesFiles' ? 'writes files'
    : call.effect === 'runs' ? (outside ? 'may change anything' : 'runs a command')
    : call.effect === 'readOnly' && outside ? 'reads only'
    : '';
  const origin = call.origin?.kind === 'mcp' ? `from MCP server ${call.origin.server}` : call.origin?.kind === 'vscode' ? 'from VS Code' : '';
  return [effect, origin].filter(Boolean).join(' · ');
}
