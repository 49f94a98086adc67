// The checkpoint store's size as the Sessions view's description (issue #15), refreshed with the list,
// and the garbage collection that runs after sessions are deleted (blobs no remaining session names).
import * as vscode from 'vscode';
import type { StoreSize } from '../../checkpoints';
import type { Logger } from '../log';
import type { CheckpointsApi } from '../../app/chat-parts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The view's description: the store's size, nothing while the store is empty (nothing checkpointed yet). */
export function describeStore(size: StoreSize | undefined): string | undefined {
  return size && size.blobs > 0 ? vscode.l10n.t('checkpoints: {0}', formatBytes(size.bytes)) : undefined;
}

/** Keeps `view.description` at the store's size; refreshed whenever `changed` fires. */
export function showStoreSize(view: vscode.TreeView<unknown>, checkpoints: CheckpointsApi | undefined, changed: vscode.Event<void>, log: Logger): vscode.Disposable {
  if (!checkpoints) return { dispose: () => undefined };
  const update = () =>
    checkpoints.storeSize().then(
      (size) => (view.description = describeStore(size)),
      (error: Error) => log.warn(`checkpoints: could not measure the store: ${error.message}`),
    );
  void update();
  return changed(() => void update());
}

/** Collects the blobs no remaining session names (after a delete); logs what it did. */
export async function collectAfterDelete(checkpoints: CheckpointsApi | undefined, liveSessions: readonly string[], log: Logger): Promise<void> {
  const result = await checkpoints?.collect(liveSessions).catch((error: Error) => ({ kind: 'skipped' as const, reason: error.message }));
  if (result?.kind === 'collected') log.info(`checkpoints: collected ${result.removed} blob(s), ${formatBytes(result.freedBytes)}; ${formatBytes(result.kept.bytes)} kept`);
  else if (result) log.warn(`checkpoints: garbage collection skipped: ${result.reason}`);
}
