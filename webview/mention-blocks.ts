// A user message that mentioned files carries their contents after its text, as <file path="…"> blocks
// (src/app/mentions.ts writes them; the model reads them). The bubble shows the text and the files as
// chips, and Edit edits the text alone (the host reads the files again on send). Pure, unit-tested.

export interface SplitMessage {
  text: string;
  files: string[];
}

const START = '\n\n<file path="';
const TAIL = /^(?:\n\n<file path="[^"]*">\n[\s\S]*?\n<\/file>)+$/;
const PATHS = /(?:^|\n\n)<file path="([^"]*)">\n/g;

export function splitFileBlocks(message: string): SplitMessage {
  const at = message.indexOf(START);
  if (at < 0) return { text: message, files: [] };
  const tail = message.slice(at);
  if (!TAIL.test(tail)) return { text: message, files: [] };
  const files = [...tail.matchAll(PATHS)].map((m) => m[1]!.replace(/&quot;/g, '"'));
  return { text: message.slice(0, at), files };
}
