// Slash commands typed in the chat input. Anything else (including unknown `/words`) is a normal prompt,
// so a message that happens to start with a slash still reaches the model.

export type SlashCommand =
  | { name: 'compact'; args: string }
  | { name: 'handoff'; args: string }
  | { name: 'new' }
  | { name: 'tree' }
  | { name: 'model'; args: string };

const PATTERN = /^\/(compact|handoff|new|tree|model)(?:\s+([\s\S]*))?$/;

export function parseSlashCommand(text: string): SlashCommand | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const args = (match[2] ?? '').trim();
  switch (match[1]) {
    case 'compact':
      return { name: 'compact', args };
    case 'handoff':
      return { name: 'handoff', args };
    case 'model':
      return { name: 'model', args };
    case 'new':
      return args ? undefined : { name: 'new' };
    case 'tree':
      return args ? undefined : { name: 'tree' };
    default:
      return undefined;
  }
}
