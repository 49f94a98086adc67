// What the chat webview asks to log reaches the "Arbor" output channel as exactly one line. The webview
// renders model replies and session content, so its `log` messages are not trusted: a newline or carriage
// return would let it forge log lines that look like the host's own, control and bidi characters would
// garble or reorder what is shown. They are escaped (`\n`, `\u001b`, `\u202e`) and the text is capped.
// No `vscode` import, so it is unit-tested in Node.

/** How much of one webview log message is kept (the protocol allows 4,000 characters). */
export const WEBVIEW_LOG_MAX = 2_000;

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The single log line for a webview `log` message. */
export function webviewLogLine(message: string): string {
  const capped = message.length > WEBVIEW_LOG_MAX ? `${message.slice(0, WEBVIEW_LOG_MAX)}… (${message.length} chars)` : message;
  return `chat webview: ${capped.replace(UNSAFE, escapeChar)}`;
}
