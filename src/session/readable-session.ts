// The read side of the session store: lookups by id, children, branches, labels, the name, the tree and the
// context for a leaf, all answered from the in-memory index. SessionStore (store.ts) extends it with the
// writing side (appends, syncing with other writers, rewrites), so each half stays small enough to read.
import { readFile } from 'node:fs/promises';
import { emptyContext, type SessionContext } from './context';
import type { SessionEntry, SessionHeader } from './entries';
import { EntryIndex } from './entry-index';
import { buildEntryTree } from './entry-tree';
import { FileTail } from './file-tail';
import { LeafContextCache } from './leaf-context-cache';
import type { LoadProblem } from './scan';
import type { SessionTreeNode } from './store-types';

export class ReadableSession {
  readonly file: string;
  header: SessionHeader;
  /** problems found while reading the file (and later foreign appends); never fatal */
  readonly loadReport: LoadProblem[] = [];

  protected index: EntryIndex;
  protected readonly tail: FileTail;
  protected leafId: string | null = null;
  private contextCache = new LeafContextCache();
  /** bumped whenever the index is rebuilt (reload, rewrite): entry objects from before are stale */
  private revision = 0;

  protected constructor(file: string, header: SessionHeader, persisted: boolean) {
    this.file = file;
    this.header = header;
    this.tail = new FileTail(file, persisted);
    this.index = this.newIndex();
  }

  /** Changes when the index is rebuilt (another writer replaced the file, or a rewrite such as pruning):
   * anything a caller cached from earlier entry objects must be rebuilt then. Appends do not change it. */
  get indexRevision(): number {
    return this.revision;
  }

  protected newIndex(): EntryIndex {
    return new EntryIndex((problem) => this.loadReport.push(problem));
  }

  /** Forgets the index (the file is read again or was rewritten): entry objects from before are stale. */
  protected clearIndex(): EntryIndex {
    const previous = this.index;
    this.revision++;
    this.index = this.newIndex();
    this.contextCache = new LeafContextCache();
    return previous;
  }

  protected resolveOpenLeaf(remembered: string | null | undefined): string | null {
    if (remembered === null) return null;
    if (remembered !== undefined && this.index.has(remembered)) return remembered;
    return this.index.lastEntryId();
  }

  // ---- reading ------------------------------------------------------------------------------------

  getEntry(id: string): SessionEntry | undefined {
    return this.index.get(id);
  }

  /**
   * Reads every entry's body now (opening reads only what the leaf context needs: entry-index.ts), so the
   * load report lists every damaged line. For readers that report problems up front, such as the CLI.
   */
  readAllEntries(): void {
    this.index.readAll();
  }

  /** All entries in file order (a copy of the list; the entries themselves are shared). */
  getEntries(): SessionEntry[] {
    return this.index.entries.slice();
  }

  get entryCount(): number {
    return this.index.count;
  }

  /** True for entries that stand in for a malformed line (see `InvalidEntry` in store-types.ts). */
  isInvalidEntry(entry: SessionEntry): boolean {
    return this.index.isInvalid(entry);
  }

  /** Children of `id`, oldest first by entry timestamp (stable for equal timestamps). */
  getChildren(id: string): SessionEntry[] {
    return this.index.children(id);
  }

  /** How many children `id` has (O(1), no copy). */
  getChildCount(id: string): number {
    return this.index.childCount(id);
  }

  getLeafId(): string | null {
    return this.leafId;
  }

  getLeafEntry(): SessionEntry | undefined {
    return this.leafId === null ? undefined : this.index.get(this.leafId);
  }

  /** Path root→entry (default: the leaf). Unknown id or a null leaf → []. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const id = fromId === undefined ? this.leafId : fromId;
    if (id === null) return [];
    const entry = this.index.get(id);
    return entry ? this.index.pathTo(entry) : [];
  }

  isRoot(entry: SessionEntry): boolean {
    return this.index.isRoot(entry);
  }

  getLabel(id: string): string | undefined {
    return this.index.label(id)?.label;
  }

  /** When the current label of `id` was set (the label entry's timestamp). */
  getLabelTimestamp(id: string): string | undefined {
    return this.index.label(id)?.timestamp;
  }

  /**
   * The file text of `entries` (one string per entry, no newline): the original bytes when the entry is
   * unchanged since it was read, else fresh JSON. Used to copy entries into another file losslessly.
   */
  async rawLines(entries: readonly SessionEntry[]): Promise<string[]> {
    const rawFile = this.tail.persisted ? await readFile(this.file) : Buffer.alloc(0);
    return this.index.serializeAll(entries, rawFile).map((line) => line.toString('utf8'));
  }

  /** The session_info name; else omp's title (its slot line, its latest title_change, its header). */
  getSessionName(): string | undefined {
    return this.index.sessionName(this.tail.titleSlot?.title, this.header.title);
  }

  /** The whole tree; every entry appears exactly once (see entry-tree.ts for orphans and cycles). */
  getTree(): SessionTreeNode[] {
    return buildEntryTree(this.index);
  }

  /**
   * pi's context for `leafId` (default: the current leaf; null → empty; unknown → last entry). Repeated
   * calls while the conversation grows reuse the previous result (leaf-context-cache.ts).
   */
  buildContext(leafId?: string | null): SessionContext {
    const target = leafId === undefined ? this.leafId : leafId;
    if (target === null || this.index.count === 0) return emptyContext();
    const leaf = this.index.get(target) ?? this.index.get(this.index.lastEntryId()!)!;
    return this.contextCache.contextFor(leaf, this.index);
  }
}
