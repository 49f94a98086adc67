// Switching the conversation to another point, as the chat and the Conversation Tree tab both do it: the
// switch dialog (summary choice, files choice, progress) when branch summaries are on or the user asked
// for it, else a plain navigate. One home for the flow, so both surfaces behave the same.
import type { NavigateFiles, NavigationMode, TreeNode, WebviewToHostMessage } from '../../src/protocol';
import type { Store } from '../store';
import { createBranchDialog, type BranchDialog, type NodeActions } from './branch-dialog';
import type { TreeActions } from './tree';

export interface SwitchFlow {
  dialog: BranchDialog;
  /** `ask`: always show the dialog (true), never (false), or as the settings say (undefined) */
  switchTo(targetId: string, preview: string, isUserMessage: boolean, ask?: boolean, nodeActions?: NodeActions): void;
  /** what a click, Enter or the context menu on a tree node does */
  treeActions: TreeActions;
}

/** The tree's context dialog also offers Pin / Unpin (messages) and Summarize from here (current branch). */
function treeNodeActions(node: TreeNode): NodeActions {
  return { onPath: node.onActivePath, ...(node.kind === 'user' || node.kind === 'assistant' ? { pinned: node.pinned === true } : {}) };
}

export function createSwitchFlow(store: Store, post: (message: WebviewToHostMessage) => void): SwitchFlow {
  const dialog = createBranchDialog({
    navigate: (targetId: string, mode: NavigationMode, instructions?: string, files?: NavigateFiles) =>
      post({ type: 'navigate', targetId, mode, ...(instructions ? { instructions } : {}), ...(files ? { files } : {}) }),
    cancel: () => post({ type: 'cancelNavigation' }),
    previewFiles: (targetId: string) => post({ type: 'previewFiles', targetId }),
    showFileChanges: (targetId: string) => post({ type: 'showFileChanges', targetId }),
    pin: (targetId: string, pinned: boolean) => post({ type: 'pin', entryId: targetId, pinned }),
    summarizeFromHere: (targetId: string) => post({ type: 'summarizeFromHere', entryId: targetId }),
  });
  function switchTo(targetId: string, preview: string, isUserMessage: boolean, ask?: boolean, nodeActions?: NodeActions): void {
    const askFirst = ask ?? store.state?.settings?.branchSummaryEnabled ?? true;
    if (askFirst) dialog.open(targetId, preview.split('\n', 1)[0]!.slice(0, 200), isUserMessage, nodeActions);
    else post({ type: 'navigate', targetId, mode: 'none' });
  }
  const treeActions: TreeActions = {
    activate: (node: TreeNode) => {
      if (node.isLeaf) return;
      switchTo(node.id, node.preview, node.kind === 'user');
    },
    switchWithSummary: (node: TreeNode) => switchTo(node.id, node.preview, node.kind === 'user', true, treeNodeActions(node)),
  };
  return { dialog, switchTo, treeActions };
}
