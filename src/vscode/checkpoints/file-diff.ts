// Multi-file diffs of file checkpoints (issue #15): "Show changes" in the switch dialogs and Compare Files
// With… A checkpointed version is served read-only from the blob store under the `arbor-checkpoint`
// scheme (an absent file is an empty document). All files open in one multi-diff editor through the
// `vscode.changes` command; where that command is missing, a QuickPick of the files opens `vscode.diff`.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { FileState } from '../../checkpoints';
import type { CheckpointsApi } from '../../app/chat-parts';

export const CHECKPOINT_SCHEME = 'arbor-checkpoint';

/** One side of a diff: a checkpointed state, or the file on disk now. */
export type DiffSide = { kind: 'state'; state: FileState | undefined } | { kind: 'disk'; absolute: string };

export interface DiffRow {
  key: string;
  left: DiffSide;
  right: DiffSide;
}

/** Serves blobs by hash: `arbor-checkpoint:/<key>?<hash>` (no hash: an empty document). */
export function registerCheckpointContent(checkpoints: () => CheckpointsApi | undefined): vscode.Disposable {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const path = uri.query ? await checkpoints()?.blobPath(uri.query) : undefined;
      return path ? readFile(path, 'utf8') : '';
    },
  };
  return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, provider);
}

function uriOf(key: string, side: DiffSide): vscode.Uri {
  if (side.kind === 'disk') return vscode.Uri.file(side.absolute);
  const hash = side.state?.kind === 'file' ? side.state.hash : '';
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${key}`, query: hash });
}

/** Opens the rows as one multi-file diff (or a picker of per-file diffs). */
export async function showFileChanges(title: string, rows: readonly DiffRow[]): Promise<void> {
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No files differ.'));
    return;
  }
  const resources = rows.map((row) => [uriOf(row.key, row.right), uriOf(row.key, row.left), uriOf(row.key, row.right)] as const);
  try {
    await vscode.commands.executeCommand('vscode.changes', title, resources);
  } catch {
    await pickAndDiff(title, rows);
  }
}

async function pickAndDiff(title: string, rows: readonly DiffRow[]): Promise<void> {
  const picked = await vscode.window.showQuickPick(rows.map((row) => ({ label: row.key, row })), { title, placeHolder: vscode.l10n.t('Pick a file to compare') });
  if (!picked) return;
  await vscode.commands.executeCommand('vscode.diff', uriOf(picked.row.key, picked.row.left), uriOf(picked.row.key, picked.row.right), `${picked.row.key} (${title})`);
}
