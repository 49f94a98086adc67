// Slash commands typed in the input. Parsing is separate from the UI so it is easy to test and extend.
import type { WebviewString } from '../src/protocol/webview-strings';

export interface SlashCommand {
  name: string;
  args: string;
  /** English; the list shows it through t() */
  hint: WebviewString;
}

export const SLASH_COMMANDS: SlashCommand[] = [
  { name: 'compact', args: '[instructions]', hint: 'Summarize older messages now, optionally with a focus' },
  { name: 'handoff', args: '[focus]', hint: 'Continue in a new session seeded with a handoff document' },
  { name: 'tree', args: '', hint: 'Show or hide the conversation tree' },
  { name: 'new', args: '', hint: 'Start a new session' },
  { name: 'model', args: '', hint: 'Choose the model' },
];

export type ParsedInput =
  | { kind: 'prompt'; text: string }
  | { kind: 'compact'; instructions?: string }
  | { kind: 'tree' }
  | { kind: 'new' }
  | { kind: 'model' };

export function parseInput(raw: string): ParsedInput {
  const text = raw.trim();
  const match = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return { kind: 'prompt', text: raw };
  const args = match[2]?.trim();
  switch (match[1]) {
    case 'compact':
      return args ? { kind: 'compact', instructions: args } : { kind: 'compact' };
    case 'tree':
      return { kind: 'tree' };
    case 'new':
      return { kind: 'new' };
    case 'model':
      return { kind: 'model' };
    default:
      // Not ours (e.g. a path like /usr/bin): an ordinary prompt.
      return { kind: 'prompt', text: raw };
  }
}

/** Suggestions while the user types the command word (no space yet). */
export function suggestions(raw: string): SlashCommand[] {
  const match = /^\/(\w*)$/.exec(raw);
  if (!match) return [];
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(match[1]!.toLowerCase()));
}
