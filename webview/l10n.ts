// The webview's words, localized like the host's: every user-visible string goes through t(), whose key
// is the English text (as vscode.l10n.t's is). The host translates the table of these texts
// (src/protocol/webview-strings.ts) with vscode.l10n and puts the ones that differ into the page once
// (the `data-strings` attribute, src/vscode/webview-html.ts); t() falls back to the English key, so a missing bundle shows English.
import { parseWebviewStrings, type WebviewString } from '../src/protocol/webview-strings';

let bundle: Readonly<Record<string, string>> = {};

/** Takes the page's string bundle (the JSON text main.ts reads); a bad one leaves English and says why. */
export function loadStrings(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const parsed = parseWebviewStrings(raw);
  if (!parsed.ok) return parsed.reason;
  bundle = parsed.strings;
  return undefined;
}

/** Replaces {0}, {1}… by the arguments; a placeholder without an argument stays as it is. */
export function format(text: string, args: readonly (string | number)[]): string {
  if (args.length === 0) return text;
  return text.replace(/\{(\d+)\}/g, (match, index: string) => (args[Number(index)] === undefined ? match : String(args[Number(index)])));
}

/** The localized text of an English webview string, with its placeholders filled. */
export function t(message: WebviewString, ...args: (string | number)[]): string {
  return format(bundle[message] ?? message, args);
}

/** For tests: the bundle as if the page had carried it. */
export function setStringsForTest(strings: Readonly<Record<string, string>>): void {
  bundle = strings;
}
