// The "Session Tree" view: the current session's conversation tree. Elements are entry ids; the shape
// comes from TreeModel (linear runs flat, nesting only at branch points), the looks from
// entry-presentation. Appends refresh only the display node they changed; a leaf move (navigation)
// refreshes the items (cheap: the cached children lists stay valid). File manifests have no row: the
// reply above them shows "3 files" (display-source.ts).
import * as vscode from 'vscode';
import type { SessionEntry } from '../../session/entries';
import type { SessionReader } from '../surfaces-types';
import type { Logger } from '../log';
import type { SurfacesApp } from '../surfaces-types';
import { stageStartIds } from '../../branch/stage';
import { contextValueFor } from './entry-context';
import { presentEntry } from './entry-presentation';
import { TreeModel } from './tree-model';
import { displaySource } from './display-source';
import { filesBadgeOf, isHiddenInTree, shownId, type FilesBadge } from '../../app/display-tree';
import { Disposable } from '../disposable';

export const SESSION_TREE_VIEW_ID = 'arbor.sessionTree';
export const REVEAL_IN_CHAT_COMMAND = 'arbor.revealInChat';

export class SessionTreeProvider extends Disposable implements vscode.TreeDataProvider<string> {
  static readonly viewId = SESSION_TREE_VIEW_ID;

  private model: TreeModel | undefined;
  private reader: SessionReader | undefined;
  private stageCache: { key: string; ids: Set<string> } | undefined;
  private storeSubscriptions: (() => void)[] = [];
  private readonly changeEmitter = this.register(new vscode.EventEmitter<string | string[] | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  /** how many change events were fired, and for what: tests check refreshes stay incremental */
  readonly refreshLog: (string | undefined)[] = [];

  constructor(
    private readonly app: Pick<SurfacesApp, 'store' | 'onDidChangeSession' | 'onDidChangeLeaf'>,
    private readonly log?: Logger,
  ) {
    super();
    this.register(app.onDidChangeSession(() => this.attach(app.store)));
    this.register(app.onDidChangeLeaf(() => this.refreshAll()));
    this.attach(app.store);
  }

  get store(): SessionReader | undefined {
    return this.reader;
  }

  get treeModel(): TreeModel | undefined {
    return this.model;
  }

  /** Switches to another store (or none). */
  attach(store: SessionReader | undefined): void {
    for (const unsubscribe of this.storeSubscriptions) unsubscribe();
    this.storeSubscriptions = [];
    this.reader = store;
    this.model = store ? new TreeModel(displaySource(store)) : undefined;
    if (store) {
      this.storeSubscriptions.push(
        store.onDidAppend((entry) => this.onAppend(entry)),
        store.onDidReload(() => this.refreshAll()),
      );
    }
    void vscode.commands.executeCommand('setContext', 'arbor.hasSession', store !== undefined);
    this.refreshAll();
  }

  refreshAll(): void {
    this.model?.invalidateAll();
    this.fire(undefined);
  }

  /** Where "Summarize from Here" can start on the current branch (the command's own predicate), per leaf. */
  private stageStarts(): Set<string> {
    const key = `${this.reader?.getLeafId() ?? ''}:${this.reader?.entryCount ?? 0}`;
    if (this.stageCache?.key !== key) this.stageCache = { key, ids: this.reader ? stageStartIds(this.reader.getBranch()) : new Set() };
    return this.stageCache.ids;
  }

  private onAppend(entry: SessionEntry): void {
    if (!this.model || !this.reader) return;
    if (isHiddenInTree(entry)) return this.onManifest(entry);
    // A compaction takes "Summarize from Here" away from every entry before it.
    if (entry.type === 'compaction') {
      this.model.onAppend(this.model.source.getEntry(entry.id) ?? entry);
      return this.refreshAll();
    }
    const affected = this.model.onAppend(this.model.source.getEntry(entry.id) ?? entry);
    if (affected.includes(undefined)) this.fire(undefined);
    else this.fire(affected as string[]);
  }

  /** A file manifest changes only the files count of the row above it. */
  private onManifest(entry: SessionEntry): void {
    const row = shownId(this.reader!, entry.id);
    if (row !== null) this.fire([row]);
  }

  private fire(nodes: string[] | undefined): void {
    if (nodes === undefined) this.refreshLog.push(undefined);
    else this.refreshLog.push(...nodes);
    this.changeEmitter.fire(nodes);
  }

  getChildren(id?: string): string[] {
    if (!this.model) return [];
    try {
      return this.model.children(id);
    } catch (error) {
      this.log?.error(`Session Tree: could not list children of ${id ?? 'the top level'}: ${(error as Error).message}`);
      return [];
    }
  }

  getParent(id: string): string | undefined {
    return this.model?.parent(id);
  }

  getTreeItem(id: string): vscode.TreeItem {
    const model = this.model;
    const entry = model?.source.getEntry(id);
    if (!model || !entry) return new vscode.TreeItem(vscode.l10n.t('(entry {0} no longer exists)', id));
    const look = presentEntry(entry);
    const onPath = model.isOnActivePath(id);
    const isLeaf = model.isLeaf(id);
    const collapsible = model.hasChildren(id)
      ? onPath
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(look.title, collapsible);
    item.id = id;
    const label = this.reader?.getLabel?.(id);
    const files = this.reader ? filesBadgeOf(this.reader, id) : undefined;
    const pinned = model.isPinned(id);
    const parts: string[] = [];
    if (pinned) parts.push(vscode.l10n.t('📌 pinned'));
    if (label) parts.push(`🏷 ${label}`);
    if (isLeaf) parts.push(vscode.l10n.t('● current'));
    const branches = model.childCount(id);
    if (branches >= 2) parts.push(vscode.l10n.t('{0} branches', branches));
    if (files) parts.push(files.count === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', files.count));
    item.description = parts.join('  ');
    item.iconPath = new vscode.ThemeIcon(
      look.icon,
      isLeaf ? new vscode.ThemeColor('charts.green') : onPath ? new vscode.ThemeColor('charts.blue') : undefined,
    );
    item.tooltip = tooltipFor(entry, look.kind, look.text, label, isLeaf, onPath, files);
    item.contextValue = contextValueFor(entry, { isLeaf, onPath, isTip: branches === 0, pinned, stageStart: this.stageStarts().has(id) });
    item.accessibilityInformation = {
      label: [
        `${look.kind}: ${look.title}`,
        ...(pinned ? [vscode.l10n.t('pinned')] : []),
        ...(label ? [vscode.l10n.t('label {0}', label)] : []),
        ...(files ? [files.text] : []),
        ...(isLeaf ? [vscode.l10n.t('current position')] : onPath ? [vscode.l10n.t('on the current branch')] : []),
      ].join(', '),
    };
    item.command = { command: REVEAL_IN_CHAT_COMMAND, title: vscode.l10n.t('Reveal in Chat'), arguments: [id] };
    return item;
  }

  override dispose(): void {
    for (const unsubscribe of this.storeSubscriptions) unsubscribe();
    super.dispose();
  }
}

function tooltipFor(entry: SessionEntry, kind: string, text: string, label: string | undefined, isLeaf: boolean, onPath: boolean, files: FilesBadge | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown(`**${escapeMd(kind)}**`);
  if (label) md.appendMarkdown(` — ${escapeMd(vscode.l10n.t('label'))} \`${escapeMd(label)}\``);
  md.appendMarkdown('\n\n');
  const shown = text.length > 600 ? `${text.slice(0, 599)}…` : text;
  if (shown) md.appendText(shown).appendMarkdown('\n\n');
  if (files) md.appendMarkdown(`${escapeMd(files.text)}\n\n`);
  const where = isLeaf ? vscode.l10n.t('current position') : onPath ? vscode.l10n.t('on the current branch') : vscode.l10n.t('on another branch');
  md.appendMarkdown(`_${escapeMd(where)} · ${escapeMd(entry.timestamp)} · ${escapeMd(entry.id)}_`);
  return md;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
