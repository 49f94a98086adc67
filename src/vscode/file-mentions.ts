// The host half of @-mentions: the workspace files the chat's completion list offers (a cached listing,
// filtered by the typed text, basename matches first), and the mentioned files' contents added to a prompt
// (src/app/mentions.ts, confined to the workspace folders).
import * as vscode from 'vscode';
import { MENTION_MATCHES } from '../protocol';
import { readMentions, withMentions } from '../app/mentions';

const LISTING_MAX = 5000;
const LISTING_TTL_MS = 10_000;
const EXCLUDE = '**/{node_modules,.git,dist,out,.vscode-test}/**';

let listing: { at: number; files: Promise<string[]> } | undefined;

function workspaceFiles(): Promise<string[]> {
  if (!listing || Date.now() - listing.at > LISTING_TTL_MS) {
    const files = Promise.resolve(vscode.workspace.findFiles('**/*', EXCLUDE, LISTING_MAX)).then((uris) => uris.map((uri) => vscode.workspace.asRelativePath(uri, false)));
    listing = { at: Date.now(), files };
  }
  return listing.files;
}

function rank(path: string, query: string): number {
  const lower = path.toLowerCase();
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  if (base.startsWith(query)) return 0;
  if (base.includes(query)) return 1;
  return 2;
}

/** Workspace-relative paths containing `query` (case-insensitive), best first. */
export async function matchingFiles(query: string): Promise<string[]> {
  const q = query.toLowerCase();
  const files = (await workspaceFiles()).filter((f) => f.toLowerCase().includes(q));
  return files.sort((a, b) => rank(a, q) - rank(b, q) || a.length - b.length || a.localeCompare(b)).slice(0, MENTION_MATCHES);
}

/** The prompt with the mentioned workspace files' contents after it (slash commands stay as typed). */
export async function promptWithMentions(text: string): Promise<string> {
  if (text.trimStart().startsWith('/')) return text;
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  return withMentions(text, await readMentions(text, roots));
}
