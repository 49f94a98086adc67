// The "Session Tree" view. Until sessions exist it has no nodes, so VS Code shows the view's welcome
// content (package.json `viewsWelcome`). Later issues fill it from the session store.
import * as vscode from 'vscode';

/** One node of a session tree: an entry of the pi v3 session, with its children. */
export interface SessionTreeNode {
  id: string;
  label: string;
  description?: string;
  children: SessionTreeNode[];
}

export class SessionTreeProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  static readonly viewId = 'arbor.sessionTree';

  private roots: SessionTreeNode[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<SessionTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;

  /** Replaces the whole tree (e.g. when another session is opened). */
  setRoots(roots: SessionTreeNode[]): void {
    this.roots = roots;
    this.changeEmitter.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      node.label,
      node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = node.id;
    item.description = node.description;
    return item;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    return node ? node.children : this.roots;
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
