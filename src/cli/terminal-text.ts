// Session files come from anywhere (a cloned repository, another tool), and `arbor-session` prints their
// content to a terminal. Control characters (ESC starting CSI/OSC sequences, BEL, C1 controls such as
// U+009B, CR that overwrites a line) would drive the terminal: retitle it, clear it, forge lines. They are
// printed as visible `\u00XX` escapes instead; the same escape is valid inside JSON strings, so `--json`
// output still decodes to the exact text. Newlines and tabs are kept.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
