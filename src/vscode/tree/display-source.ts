// The Session Tree's view of a store with file manifests left out (src/app/display-tree.ts): a manifest
// has no row, its children hang on the reply above it, and a leaf on a manifest is that reply's row.
// TreeModel reads this instead of the store, so its runs, branch points and heads follow what is shown
// (a manifest with two children is a branch point at the reply). No vscode import (unit-tested).
import type { SessionEntry } from '../../session/entries';
import { displayChildren, displayParentId, isHiddenInTree, shownId } from '../../app/display-tree';
import type { TreeSource } from './tree-model';

export function displaySource(store: TreeSource): TreeSource {
  const shownParent = (entry: SessionEntry): SessionEntry => {
    const parentId = displayParentId(store, entry);
    return parentId === entry.parentId ? entry : { ...entry, parentId };
  };
  return {
    getEntry: (id) => {
      const entry = store.getEntry(id);
      return entry && !isHiddenInTree(entry) ? shownParent(entry) : undefined;
    },
    getChildren: (id) => displayChildren(store, id).map(shownParent),
    getEntries: () => store.getEntries().filter((entry) => !isHiddenInTree(entry)),
    isRoot: (entry) => {
      const parentId = displayParentId(store, entry);
      return parentId === null || parentId === entry.id || store.getEntry(parentId) === undefined;
    },
    getLeafId: () => shownId(store, store.getLeafId()),
    get entryCount() {
      return store.entryCount;
    },
  };
}
