// The chat's branch-switch dialog in UI tests (checkpoints-dialog, checkpoints-protected): sessions seeded
// with file checkpoints (blobs laid out as src/checkpoints/blob-store.ts does, `arbor.files` manifests), the
// in-panel tree shown as a list, and the dialog opened from one of its rows.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { retry } from './retry.mjs';

/** A function that stores a text as a blob in `sessionsDir`'s checkpoint store and returns its file state. */
export function blobStore(sessionsDir) {
  return (text) => {
    const hash = createHash('sha256').update(text).digest('hex');
    const dir = join(sessionsDir, 'checkpoints', 'blobs', hash.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, hash.slice(2)), text);
    return { kind: 'file', hash, size: Buffer.byteLength(text) };
  };
}

/** A turn's file manifest entry (the files' states before and after it), timestamped by the seed clock `at`. */
export function filesManifest(at, id, parentId, before, after) {
  return { type: 'custom', id, parentId, timestamp: at(), customType: 'arbor.files', data: { version: 1, reason: 'turn', method: 'tool', before, after } };
}

/** Opens the chat's in-panel tree (if closed) and returns it. */
export async function openTreePanel(chat) {
  const treeOpen = chat.locator('#app[data-tree-open="true"]');
  if ((await treeOpen.count()) === 0) await chat.locator('vscode-button#toggle-tree').click();
  await treeOpen.waitFor();
  return chat.locator('#tree-panel');
}

/** Shows the in-panel tree as its list of entries and waits for the row of `rowId`. */
export async function showTreeList(chat, rowId) {
  await chat.locator('#tree-panel .tree-mode-list').click();
  await chat.locator(`#tree-panel .tree-row[data-id="${rowId}"]`).waitFor({ timeout: 20_000 });
}

/** Clicks the list row of `rowId` until the branch-switch dialog opens, then waits for its files section. */
export async function openSwitchDialog(chat, rowId) {
  await retry(`opening the branch dialog for ${rowId}`, async () => {
    await chat.locator(`#tree-panel .tree-row[data-id="${rowId}"]`).click();
    await chat.locator('#branch-dialog').waitFor({ state: 'visible', timeout: 5000 });
  });
  await chat.locator('#switch-files').waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Where the open switch dialog sits against the view's width: its right edge, the view's width and what
 * reaches past the view's edge (the dialog cut off at 300 px before its padding counted in its width) or
 * past the dialog's own border (the Files box widened by a long protected path).
 */
export async function switchDialogFit(chat) {
  return chat.locator('#branch-dialog').evaluate((dialog) => {
    const viewWidth = document.documentElement.clientWidth;
    const box = dialog.getBoundingClientRect();
    const inner = box.right - parseFloat(getComputedStyle(dialog).borderRightWidth);
    const name = (e) => e.id || String(e.className) || e.tagName;
    const cut = [
      ...(box.right > viewWidth + 0.5 ? [dialog] : []),
      ...[...dialog.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > Math.min(viewWidth, inner) + 0.5),
    ];
    return { right: Math.round(box.right), viewWidth, cut: cut.map(name).slice(0, 6) };
  });
}
