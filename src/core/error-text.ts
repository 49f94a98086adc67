// The one way a caught value becomes the text shown to the user or logged: an Error's message, anything
// else as String(). In core so every layer (src/mcp, src/vscode, src/session, src/llm) can import it.

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
