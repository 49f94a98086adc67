// JSON with comments and trailing commas, as VS Code writes its settings and mcp.json files. One reader for
// every such file Arbor reads itself (a workspace's .vscode/settings.json, .vscode/mcp.json), so a comment
// or trailing comma is understood the same way everywhere.

/** The text with // and block comments and trailing commas outside strings removed (positions of lines kept). */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** JSON.parse after removing comments and trailing commas outside strings; undefined when still invalid. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(stripJsonComments(text));
  } catch {
    return undefined;
  }
}

/** Index just past the string starting at `start` (a `"`), escapes honoured. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
