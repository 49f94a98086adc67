// Builds the chat webview's HTML: a strict Content-Security-Policy with a fresh nonce per render, and
// only scripts/styles from the extension's build output. The page itself is rendered by webview/main.ts.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { translateWebviewStrings, type WebviewStrings } from '../protocol/webview-strings';

/** Folders the webview may load from; everything else on disk stays invisible to it. */
export function webviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function createNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    // The toolkit (FAST) injects <style> elements and style attributes without a nonce, so inline styles
    // must be allowed; a nonce here would switch 'unsafe-inline' off. Scripts stay nonce-only.
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** The webview's words as vscode.l10n translates them (only those that differ from English). */
export function localizedWebviewStrings(): WebviewStrings {
  return translateWebviewStrings((message, ...args) => vscode.l10n.t(message, ...args));
}

/** The string bundle as the value of a `data-strings` attribute: HTML-escaped, so no translation can end it. */
export function stringsAttribute(strings: WebviewStrings): string {
  return JSON.stringify(strings).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's language: VS Code's display language, as the translated words are (a BCP 47 tag, else English). */
function htmlLanguage(): string {
  const language = vscode.env.language;
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language) ? language : 'en';
}

/** `view`: the chat, or the Conversation Tree editor tab (the same bundle, webview/render/tree-page.ts). */
export function renderChatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce = createNonce(), view: 'chat' | 'tree' = 'chat'): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name));
  const csp = contentSecurityPolicy(webview.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="${htmlLanguage()}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${asset('main.css').toString()}">
  <link rel="stylesheet" href="${asset('approval-card.css').toString()}">
  <link rel="stylesheet" href="${asset('tree-graph.css').toString()}">
  <script type="module" nonce="${nonce}" src="${asset('toolkit.min.js').toString()}"></script>
  <script defer nonce="${nonce}" src="${asset('main.js').toString()}"></script>
  <title>${view === 'tree' ? 'Arbor Conversation Tree' : 'Arbor Chat'}</title>
</head>
<body>
  <div id="app" data-status="loading" data-view="${view}" data-strings="${stringsAttribute(localizedWebviewStrings())}"></div>
</body>
</html>`;
}
