// Reading what the editor's entry points quote (docs/architecture.md, "Start from the editor"): a document's
// lines as a CodeSpan with its workspace-relative path. Shared by Add to Chat and Fix with Arbor.
import * as vscode from 'vscode';
import type { CodeSpan } from '../../app/editor-context';

/** The path the chat shows and @-mentions resolve: relative to its workspace folder, `/`-separated. */
export function chatPath(uri: vscode.Uri): string {
  const relative = vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
  return relative.replace(/\\/g, '/');
}

/** Lines `first`..`last` (0-based, inclusive, clamped to the document) as a span. */
export function spanOf(document: vscode.TextDocument, first: number, last: number): CodeSpan {
  const start = Math.max(0, Math.min(first, document.lineCount - 1));
  const end = Math.max(start, Math.min(last, document.lineCount - 1));
  const range = new vscode.Range(start, 0, end, document.lineAt(end).text.length);
  return { path: chatPath(document.uri), startLine: start + 1, endLine: end + 1, languageId: document.languageId, text: document.getText(range) };
}

/** The selection's whole lines (a selection ending at column 0 of a line does not take that line). */
export function selectionSpan(document: vscode.TextDocument, selection: vscode.Selection): CodeSpan {
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  return spanOf(document, selection.start.line, last);
}
