// Shared pieces of the file checkpoint exthost suites: a turn through the fake provider that writes FILE,
// the reply that ended it, and scripted answers to the summary and files pickers.
import * as assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, fakeAdmin } from './helpers';
import { stubWindow } from './surfaces-fixtures';

export const FILE = 'cp15-switch.txt';

export function workspaceFile(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return join(folder.uri.fsPath, name);
}

/** One turn: the model writes `word` (and a newline) to FILE, then says so. Every approval is granted. */
export async function writeTurn(api: ArborApi, word: string): Promise<void> {
  await fakeAdmin('enqueue', [{ toolCalls: [{ id: `call_${word}`, name: 'write', input: { path: FILE, content: `${word}\n` } }] }, { text: `Wrote ${word}.` }]);
  const subscription = api.approvals.onDidRequest((pending) => api.approvals.answer(pending.toolCallId, { kind: 'approve' }));
  try {
    assert.equal((await api.app.prompt(`write ${word}`)).kind, 'sent');
  } finally {
    subscription.dispose();
  }
}

/** The assistant reply that ended the turn which wrote `word`. */
export function replyOf(api: ArborApi, word: string): string {
  const entry = api.app.currentStore!.getEntries().find((e) => e.type === 'message' && e.message.role === 'assistant' && JSON.stringify(e.message.content).includes(`Wrote ${word}.`));
  assert.ok(entry, `the reply after writing ${word}`);
  return entry.id;
}

export type Item = { label: string; description?: string; detail?: string };

/**
 * Answers the summary picker with "No summary" and the files picker with `files` (`A|B`: A the first time
 * it is asked, B after); records the files picker.
 */
export function answers(files: string, outsideTicks: string[] = [], onFilesAsked?: () => void) {
  const seen: { files?: Item[]; outside?: Item[]; filesAsked?: number } = {};
  const ui = stubWindow({
    showQuickPick: (items: Item[], options: { canPickMany?: boolean }) => {
      if (options?.canPickMany) {
        seen.outside = items;
        return items.filter((i) => outsideTicks.includes(i.label));
      }
      if (items.some((i) => i.label.includes('Conversation only'))) {
        seen.files = items;
        seen.filesAsked = (seen.filesAsked ?? 0) + 1;
        onFilesAsked?.();
        const pick = files.split('|')[Math.min(seen.filesAsked - 1, files.split('|').length - 1)]!;
        return items.find((i) => i.label.includes(pick));
      }
      return items.find((i) => i.label.includes('No summary'));
    },
  });
  return { ui, seen };
}


/** Every test starts from a new session whose two turns wrote "one" then "two" to FILE. */
export async function twoTurnSession(): Promise<ArborApi> {
  const api = await activateArbor();
  await removeFile();
  await api.app.session.newSession();
  await writeTurn(api, 'one');
  await writeTurn(api, 'two');
  return api;
}

export async function removeFile(): Promise<void> {
  await rm(workspaceFile(FILE), { force: true });
}
