// The session store: one append-only pi v3 JSONL file, indexed in memory as a tree.
//
// - Loading is tolerant: bad lines are reported in `loadReport` and skipped, never "fixed" on disk.
// - Every append writes one line under a cross-process lock, after reading whatever other writers appended
//   since our last write, then fsyncs before the returned promise resolves.
// - Unchanged entries are written back byte-for-byte on rewrites (their byte ranges are remembered), so
//   unknown entry types and unknown fields survive.
// - Appends and rewrites run one at a time in call order (an in-process queue); state changes (leaf,
//   index) happen when the write has completed.
import { readFile, mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentMessage, Usage } from '../core/messages';
import {
  applySettings,
  buildSessionContext,
  contextFromPath,
  contextMessageFromEntry,
  emptyContext,
  pathToRoot,
  type SessionContext,
} from './context';
import {
  CURRENT_SESSION_VERSION,
  type BranchSummaryEntry,
  type CompactionEntry,
  type CustomEntry,
  type CustomMessageEntry,
  type LabelEntry,
  type MessageEntry,
  type ModelChangeEntry,
  type SessionEntry,
  type SessionHeader,
  type SessionInfoEntry,
  type ThinkingLevelChangeEntry,
} from './entries';
import { SessionChangedError, SessionFileError, SessionLockError, SessionReadOnlyError, UnknownEntryError } from './errors';
import { backupFile, syncDir, timestampForFileName, writeAll, writeFileAtomic } from './files';
import { describeReadOnly, headerFrom, readOnlyReasonFor, scanOrExplain, type ReadOnlyReason } from './header';
import type { TitleSlot } from './title-slot';
import { generateEntryId, generateSessionId } from './ids';
import type { LeafMemory } from './leaf-memory';
import { acquireLock, type HeldLock } from './lock';
import { removeStaleTemps } from './stale-temps';
import { migrateToCurrentVersion, sessionVersion } from './migrate';
import { checkRewrite, fingerprint, interleaveNewlines, MAX_REWRITE_ATTEMPTS, sameFingerprint, serializeEntry, type FileFingerprint } from './rewrite';
import { scanLines, type LoadProblem, type ParsedLine, type ScanResult } from './scan';
import { isUnderstoodType } from './kinds/index';
import { describeEntryProblem, entryProblem, hasEntryBase } from './schema';

export type { LoadProblem, LoadProblemKind } from './scan';
export type { ReadOnlyReason } from './header';

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

export interface OpenOptions {
  /** remembered leaf: honoured when it exists in the file (null = before the first entry) */
  leafId?: string | null;
  /** where the leaf is remembered across restarts; read when `leafId` is not given, written on every move */
  leafMemory?: LeafMemory;
}

export interface CreateOptions {
  dir: string;
  cwd: string;
  parentSession?: string;
  id?: string;
  leafMemory?: LeafMemory;
}

/** What a caller supplies for a compaction entry; the store adds type, id, parentId and timestamp. */
export type CompactionFields = Pick<
  CompactionEntry,
  'summary' | 'firstKeptEntryId' | 'tokensBefore' | 'details' | 'fromHook' | 'shortSummary' | 'preserveData' | 'usage' | 'reason' | 'tokensAfter'
>;

/** In memory, an entry whose known type has an invalid shape is replaced by this opaque node (the raw
 * line is still written back unchanged), so nothing downstream trips over a malformed field. */
export interface InvalidEntry {
  type: 'invalid_entry';
  id: string;
  parentId: string | null;
  timestamp: string;
  originalType: string;
  problem: string;
  [extra: string]: unknown;
}

type Listener<T> = (value: T) => void;
type NewEntry = Omit<SessionEntry, 'id' | 'parentId' | 'timestamp'> & Record<string, unknown>;

const NO_RAW = -1;
/** Entries that change messages before them in the context, so a cached context cannot just be extended. */
const RESHAPING_TYPES = new Set(['compaction', 'context_edit', 'reset_boundary']);

/** pi's session file name: `<ISO timestamp with : and . → ->_<session id>.jsonl`. */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, '-')}_${id}.jsonl`;
}

/** The header of a new session (version 3, a fresh id unless given, now, `cwd`, `parentSession` when given). */
export function newSessionHeader(options: { cwd: string; id?: string; parentSession?: string }): SessionHeader {
  const header: SessionHeader = { type: 'session', version: CURRENT_SESSION_VERSION, id: options.id ?? generateSessionId(), timestamp: new Date().toISOString(), cwd: options.cwd };
  if (options.parentSession !== undefined) header.parentSession = options.parentSession;
  return header;
}

export class SessionStore {
  readonly file: string;
  header: SessionHeader;
  /** problems found while reading the file (and later foreign appends); never fatal */
  readonly loadReport: LoadProblem[] = [];
  /** entries already reported as 'partly-shown' (each is reported once) */
  private readonly partlyShown = new Set<string>();
  /** set when the file is v1/v2 and was migrated in memory only; cleared once written as v3 */
  migratedFrom: number | undefined;
  /** set when the file must never be written (a newer version's session): appends and rewrites refuse */
  readOnly: ReadOnlyReason | undefined;

  private entries: SessionEntry[] = [];
  private rawOffset: number[] = [];
  private rawLength: number[] = [];
  private headerRaw: { offset: number; length: number } | undefined;
  /** omp's title slot line before the header, if the file has one (kept first on rewrites) */
  private titleSlot: TitleSlot | undefined;
  private byId = new Map<string, SessionEntry>();
  /** parent id → children in file order; built on first use (opening a session does not need it) */
  private children: Map<string, SessionEntry[]> | undefined;
  private unsortedChildren = new Set<string>();
  private labels = new Map<string, { label: string; timestamp: string }>();
  private sessionName: string | undefined;
  /** omp's latest `title_change` title */
  private ompTitle: string | undefined;
  /** malformed entries' stand-ins → the value read from the file (written back as it was) */
  private opaque = new WeakMap<object, unknown>();
  private leafId: string | null = null;
  private contextCache: { leafId: string; context: SessionContext } | undefined;
  /** bumped whenever the index is rebuilt (reload, rewrite): entry objects from before are stale */
  private revision = 0;

  private persisted: boolean;
  /** whether this store already cleared the temps killed rewrites left (once per open, under the lock) */
  private tempsSwept = false;
  private ino = 0;
  private fileSize = 0;
  private resumeOffset = 0;
  private resumeLineNo = 1;
  private endsWithNewline = true;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly appendListeners = new Set<Listener<SessionEntry>>();
  private readonly reloadListeners = new Set<Listener<void>>();
  private readonly leafMemory: LeafMemory | undefined;

  private constructor(file: string, header: SessionHeader, persisted: boolean, leafMemory: LeafMemory | undefined) {
    this.file = file;
    this.header = header;
    this.persisted = persisted;
    this.leafMemory = leafMemory;
  }

  /** Reports, once per entry, that an entry loaded but the UI could show it only partly (and why). */
  notePartlyShown(entryId: string, problems: readonly string[]): void {
    if (this.partlyShown.has(entryId)) return;
    this.partlyShown.add(entryId);
    const shownId = entryId.length > 40 ? `${entryId.slice(0, 40)}…` : entryId;
    this.loadReport.push({ line: 0, kind: 'partly-shown', message: `entry ${JSON.stringify(shownId)} is shown partly: ${problems.join('; ')}` });
  }

  // ---- opening ------------------------------------------------------------------------------------

  static async open(file: string, options: OpenOptions = {}): Promise<SessionStore> {
    const scan = await scanOrExplain(file);
    const { header, titleSlot } = headerFrom(file, scan);
    const store = new SessionStore(file, header.value as SessionHeader, true, options.leafMemory);
    store.ingest(scan, header, titleSlot);
    const remembered = options.leafId !== undefined ? options.leafId : options.leafMemory?.get(file);
    store.leafId = store.resolveOpenLeaf(remembered);
    return store;
  }

  /** A new, empty session. The file is written with the first append (or `ensureFile()`), like pi. */
  static async create(options: CreateOptions): Promise<SessionStore> {
    const header = newSessionHeader(options);
    await mkdir(options.dir, { recursive: true });
    const file = join(options.dir, sessionFileName(header.timestamp, header.id));
    return new SessionStore(file, header, false, options.leafMemory);
  }

  private ingest(scan: ScanResult, header: ParsedLine, titleSlot: TitleSlot | undefined): void {
    this.loadReport.push(...scan.problems);
    this.titleSlot = titleSlot;
    const slotOffset = titleSlot?.offset;
    const rest = scan.lines;
    const version = sessionVersion(this.header);
    this.readOnly = readOnlyReasonFor(this.header as unknown as Record<string, unknown>);
    if (this.readOnly) this.loadReport.push({ line: 0, kind: 'read-only', message: describeReadOnly(this.readOnly) });
    let useRaw = true;
    if (version < CURRENT_SESSION_VERSION) {
      const values = rest.filter((line) => line !== header && line.offset !== slotOffset).map((line) => line.value);
      this.migratedFrom = migrateToCurrentVersion(this.header, values);
      useRaw = false;
      this.loadReport.push({
        line: 0,
        kind: 'migrated',
        message: `version ${version} session migrated to version 3 in memory; the original is backed up before any write`,
      });
    }
    this.headerRaw = useRaw ? { offset: header.offset, length: header.length } : undefined;
    for (const line of rest) {
      if (line !== header && line.offset !== slotOffset) this.indexLine(line, useRaw ? line.offset : NO_RAW, line.length);
    }
    this.loadReport.push(...unknownTypeProblems(this.entries));
    this.ino = scan.ino;
    this.fileSize = scan.size;
    this.resumeOffset = scan.resumeOffset;
    this.resumeLineNo = scan.resumeLineNo;
    this.endsWithNewline = scan.endsWithNewline;
  }

  private indexLine(line: ParsedLine, offset: number, length: number): SessionEntry | undefined {
    const value = line.value;
    if (!hasEntryBase(value)) {
      this.loadReport.push({
        line: line.lineNo,
        kind: 'invalid-entry',
        message: `not a session entry (${describeEntryProblem(value)}); line skipped`,
      });
      return undefined;
    }
    if (this.byId.has(value.id)) {
      this.loadReport.push({
        line: line.lineNo,
        kind: 'duplicate-id',
        message: `entry id ${value.id} already used by an earlier line; this line is ignored`,
      });
      return undefined;
    }
    let entry = value as unknown as SessionEntry;
    if (entryProblem(value) !== undefined) {
      const problem = describeEntryProblem(value);
      const stand: InvalidEntry = {
        type: 'invalid_entry',
        id: value.id,
        parentId: value.parentId,
        timestamp: value.timestamp,
        originalType: value.type,
        problem,
      };
      entry = stand as unknown as SessionEntry;
      this.opaque.set(entry, value);
      this.loadReport.push({
        line: line.lineNo,
        kind: 'invalid-entry',
        message: `${value.type} entry ${value.id} is malformed (${problem}); kept in the tree, ignored in context`,
      });
    }
    this.addToIndex(entry, offset, length);
    return entry;
  }

  private addToIndex(entry: SessionEntry, offset: number, length: number): void {
    this.entries.push(entry);
    this.rawOffset.push(offset);
    this.rawLength.push(length);
    this.byId.set(entry.id, entry);
    if (this.children) this.addChild(this.children, entry);
    if (entry.type === 'label') {
      if (entry.label) this.labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
      else this.labels.delete(entry.targetId);
    } else if (entry.type === 'session_info') {
      this.sessionName = typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : undefined;
    } else if ((entry.type as string) === 'title_change') {
      this.ompTitle = nonEmpty((entry as { title?: unknown }).title) ?? this.ompTitle;
    }
  }

  private addChild(children: Map<string, SessionEntry[]>, entry: SessionEntry): void {
    const parentId = entry.parentId;
    if (parentId === null || parentId === entry.id) return;
    const siblings = children.get(parentId);
    if (siblings === undefined) children.set(parentId, [entry]);
    else {
      if (compareTimestamps(siblings[siblings.length - 1]!, entry) > 0) this.unsortedChildren.add(parentId);
      siblings.push(entry);
    }
  }

  private childIndex(): Map<string, SessionEntry[]> {
    if (this.children) return this.children;
    const children = new Map<string, SessionEntry[]>();
    for (const entry of this.entries) this.addChild(children, entry);
    this.children = children;
    return children;
  }

  private clearIndex(): void {
    this.revision++;
    this.entries = [];
    this.rawOffset = [];
    this.rawLength = [];
    this.byId = new Map();
    this.children = undefined;
    this.unsortedChildren = new Set();
    this.labels = new Map();
    this.sessionName = undefined;
    this.ompTitle = undefined;
    this.opaque = new WeakMap();
    this.contextCache = undefined;
  }

  private resolveOpenLeaf(remembered: string | null | undefined): string | null {
    if (remembered === null) return null;
    if (remembered !== undefined && this.byId.has(remembered)) return remembered;
    return this.lastEntryId();
  }

  private lastEntryId(): string | null {
    return this.entries.length > 0 ? this.entries[this.entries.length - 1]!.id : null;
  }

  // ---- reading ------------------------------------------------------------------------------------

  getEntry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  /** All entries in file order (a copy of the list; the entries themselves are shared). */
  getEntries(): SessionEntry[] {
    return this.entries.slice();
  }

  get entryCount(): number {
    return this.entries.length;
  }

  /** True for entries that stand in for a malformed line (see `InvalidEntry`). */
  isInvalidEntry(entry: SessionEntry): boolean {
    return this.opaque.has(entry);
  }

  /** Children of `id`, oldest first by entry timestamp (stable for equal timestamps). */
  getChildren(id: string): SessionEntry[] {
    const list = this.childIndex().get(id);
    if (!list) return [];
    if (this.unsortedChildren.has(id)) {
      sortByTimestamp(list);
      this.unsortedChildren.delete(id);
    }
    return list.slice();
  }

  /** How many children `id` has (O(1), no copy). */
  getChildCount(id: string): number {
    return this.childIndex().get(id)?.length ?? 0;
  }

  getLeafId(): string | null {
    return this.leafId;
  }

  getLeafEntry(): SessionEntry | undefined {
    return this.leafId === null ? undefined : this.byId.get(this.leafId);
  }

  /** Path root→entry (default: the leaf). Unknown id or a null leaf → []. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const id = fromId === undefined ? this.leafId : fromId;
    if (id === null) return [];
    const entry = this.byId.get(id);
    return entry ? pathToRoot(entry, this.byId) : [];
  }

  isRoot(entry: SessionEntry): boolean {
    return entry.parentId === null || entry.parentId === entry.id || !this.byId.has(entry.parentId);
  }

  getLabel(id: string): string | undefined {
    return this.labels.get(id)?.label;
  }

  /** When the current label of `id` was set (the label entry's timestamp). */
  getLabelTimestamp(id: string): string | undefined {
    return this.labels.get(id)?.timestamp;
  }

  /**
   * The file text of `entries` (one string per entry, no newline): the original bytes when the entry is
   * unchanged since it was read, else fresh JSON. Used to copy entries into another file losslessly.
   */
  async rawLines(entries: readonly SessionEntry[]): Promise<string[]> {
    const rawFile = this.persisted ? await readFile(this.file) : Buffer.alloc(0);
    const positions = new Map<SessionEntry, number>();
    this.entries.forEach((entry, index) => positions.set(entry, index));
    return entries.map((entry) => this.serialize(entry, positions.get(entry), rawFile).toString('utf8'));
  }

  /** The session_info name; else omp's title (its slot line, its latest title_change, its header). */
  getSessionName(): string | undefined {
    return this.sessionName ?? this.titleSlot?.title ?? this.ompTitle ?? nonEmpty(this.header.title);
  }

  /**
   * The whole tree. Roots: parentId null, self-parented, or unknown parent (orphans). Entries caught in a
   * parent cycle become roots too (the first in file order), so every entry appears exactly once.
   * Built without recursion: sessions can be tens of thousands of entries deep.
   */
  getTree(): SessionTreeNode[] {
    const nodes = new Map<string, SessionTreeNode>();
    for (const entry of this.entries) {
      const node: SessionTreeNode = { entry, children: [] };
      const label = this.labels.get(entry.id);
      if (label) {
        node.label = label.label;
        node.labelTimestamp = label.timestamp;
      }
      nodes.set(entry.id, node);
    }
    const roots: SessionTreeNode[] = [];
    for (const entry of this.entries) {
      const node = nodes.get(entry.id)!;
      if (this.isRoot(entry)) roots.push(node);
      else nodes.get(entry.parentId!)!.children.push(node);
    }
    const reached = new Set<string>();
    const mark = (start: SessionTreeNode) => {
      const stack = [start];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (reached.has(node.entry.id)) continue;
        reached.add(node.entry.id);
        for (const child of node.children) stack.push(child);
      }
    };
    for (const root of roots) mark(root);
    if (reached.size < this.entries.length) {
      for (const entry of this.entries) {
        if (reached.has(entry.id)) continue;
        const node = nodes.get(entry.id)!;
        const parent = nodes.get(entry.parentId!)!;
        parent.children.splice(parent.children.indexOf(node), 1); // break the cycle here
        roots.push(node);
        mark(node);
      }
    }
    for (const node of nodes.values()) if (node.children.length > 1) sortNodes(node.children);
    return roots;
  }

  // ---- context ------------------------------------------------------------------------------------

  /**
   * pi's context for `leafId` (default: the current leaf; null → empty; unknown → last entry). Repeated
   * calls while the conversation grows reuse the previous result, so a turn costs the same at entry 500
   * as at entry 35,000.
   */
  buildContext(leafId?: string | null): SessionContext {
    const target = leafId === undefined ? this.leafId : leafId;
    if (target === null || this.entries.length === 0) return emptyContext();
    const leaf = this.byId.get(target) ?? this.entries[this.entries.length - 1]!;
    const context = this.extendCachedContext(leaf) ?? contextFromPath(pathToRoot(leaf, this.byId));
    this.contextCache = { leafId: leaf.id, context };
    return copyContext(context);
  }

  /**
   * Extends the cached context when `leaf` descends from the cached leaf by a few entries that only add
   * messages (a compaction, a reset boundary or a context edit changes earlier messages: built anew).
   */
  private extendCachedContext(leaf: SessionEntry): SessionContext | undefined {
    const cache = this.contextCache;
    if (!cache) return undefined;
    if (cache.leafId === leaf.id) return cache.context;
    const added: SessionEntry[] = [];
    let current: SessionEntry | undefined = leaf;
    while (current && current.id !== cache.leafId) {
      if (added.length >= 64 || RESHAPING_TYPES.has(current.type) || this.isRoot(current)) return undefined;
      added.push(current);
      current = this.byId.get(current.parentId!);
    }
    if (!current) return undefined;
    const context = copyContext(cache.context);
    for (let i = added.length - 1; i >= 0; i--) {
      const entry = added[i]!;
      applySettings(entry, context);
      const message = contextMessageFromEntry(entry);
      if (message) context.messages.push(message);
    }
    return context;
  }

  // ---- moving the leaf ----------------------------------------------------------------------------

  /** Moves the leaf to an existing entry; the next append creates a sibling branch there. */
  branch(id: string): void {
    if (!this.byId.has(id)) throw new UnknownEntryError(id);
    this.setLeaf(id);
  }

  /** Leaf before the first entry: the next append creates a new root. */
  resetLeaf(): void {
    this.setLeaf(null);
  }

  private setLeaf(id: string | null): void {
    this.leafId = id;
    const memory = this.leafMemory;
    if (memory) {
      // Remembering the leaf is best effort: a failing memory must not fail the conversation.
      Promise.resolve()
        .then(() => memory.set(this.file, id))
        .catch(() => undefined);
    }
  }

  // ---- appending ----------------------------------------------------------------------------------

  appendMessage(message: AgentMessage): Promise<MessageEntry> {
    if (message.role === 'branchSummary' || message.role === 'compactionSummary') {
      return Promise.reject(new Error(`${message.role} messages are built from entries and cannot be appended`));
    }
    return this.append({ type: 'message', message }) as Promise<MessageEntry>;
  }

  appendThinkingLevelChange(thinkingLevel: string): Promise<ThinkingLevelChangeEntry> {
    return this.append({ type: 'thinking_level_change', thinkingLevel }) as Promise<ThinkingLevelChangeEntry>;
  }

  appendModelChange(provider: string, modelId: string): Promise<ModelChangeEntry> {
    return this.append({ type: 'model_change', provider, modelId }) as Promise<ModelChangeEntry>;
  }

  appendCompaction(fields: CompactionFields): Promise<CompactionEntry> {
    return this.append({
      type: 'compaction',
      summary: fields.summary,
      firstKeptEntryId: fields.firstKeptEntryId,
      tokensBefore: fields.tokensBefore,
      details: fields.details,
      fromHook: fields.fromHook,
      shortSummary: fields.shortSummary,
      preserveData: fields.preserveData,
      usage: fields.usage,
      reason: fields.reason,
      tokensAfter: fields.tokensAfter,
    }) as Promise<CompactionEntry>;
  }

  /**
   * Moves the leaf to `fromId` (null: before the first entry) and appends a `branch_summary` there.
   * pi stores the attach point (or "root") in `fromId`; the summary becomes the leaf.
   */
  branchWithSummary(fromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): Promise<BranchSummaryEntry> {
    if (fromId !== null && !this.byId.has(fromId)) return Promise.reject(new UnknownEntryError(fromId));
    return this.append(
      { type: 'branch_summary', fromId: fromId ?? 'root', summary, details, fromHook, usage },
      () => this.setLeaf(fromId),
    ) as Promise<BranchSummaryEntry>;
  }

  appendCustomEntry(customType: string, data?: unknown): Promise<CustomEntry> {
    return this.append({ type: 'custom', customType, data }) as Promise<CustomEntry>;
  }

  appendCustomMessage(
    customType: string,
    content: CustomMessageEntry['content'],
    display: boolean,
    details?: unknown,
  ): Promise<CustomMessageEntry> {
    return this.append({ type: 'custom_message', customType, content, display, details }) as Promise<CustomMessageEntry>;
  }

  /** Appends a `label` entry at the leaf (it moves the leaf, like pi). Empty/undefined clears. */
  appendLabelChange(targetId: string, label: string | undefined): Promise<LabelEntry> {
    if (!this.byId.has(targetId)) return Promise.reject(new UnknownEntryError(targetId));
    return this.append({ type: 'label', targetId, label: label ? label : undefined }) as Promise<LabelEntry>;
  }

  appendSessionInfo(name: string | undefined): Promise<SessionInfoEntry> {
    const trimmed = name?.trim();
    return this.append({ type: 'session_info', name: trimmed ? trimmed : undefined }) as Promise<SessionInfoEntry>;
  }

  /** Writes the header now for a session made by `create()` (normally deferred to the first append). */
  ensureFile(): Promise<void> {
    return this.enqueue(async () => {
      if (this.persisted) return;
      const lock = await acquireLock(this.file);
      try {
        await this.writeLines('');
      } finally {
        await this.releaseLock(lock);
      }
    });
  }

  /** Reads entries other writers appended since our last read. Returns them (file order). */
  refresh(): Promise<SessionEntry[]> {
    return this.enqueue(async () => (this.persisted ? this.syncWithDisk() : []));
  }

  /** Changes when the index is rebuilt (another writer replaced the file, or a rewrite such as pruning):
   * anything a caller cached from earlier entry objects must be rebuilt then. Appends do not change it. */
  get indexRevision(): number {
    return this.revision;
  }

  onDidAppend(listener: (entry: SessionEntry) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Fired when the file was replaced by another writer and the whole index was rebuilt. */
  onDidReload(listener: () => void): () => void {
    this.reloadListeners.add(listener);
    return () => this.reloadListeners.delete(listener);
  }

  private append(fields: NewEntry, beforeCreate?: () => void): Promise<SessionEntry> {
    return this.enqueue(async () => {
      this.refuseIfReadOnly();
      await this.ensureMigrationWritten();
      const lock = await acquireLock(this.file);
      let entry: SessionEntry;
      try {
        await this.sweepTempsOnce();
        if (this.persisted) await this.syncWithDisk();
        this.refuseIfReadOnly(); // the file may have been replaced by a newer version's
        beforeCreate?.();
        entry = withoutUndefined({
          type: fields.type,
          id: generateEntryId((id) => this.byId.has(id)),
          parentId: this.leafId,
          timestamp: new Date().toISOString(),
          ...fields,
        }) as SessionEntry;
        const line = JSON.stringify(entry);
        const offset = await this.writeLines(line + '\n');
        this.addToIndex(entry, offset, Buffer.byteLength(line));
      } finally {
        await this.releaseLock(lock);
      }
      this.setLeaf(entry.id);
      this.emitAppend(entry);
      return entry;
    });
  }

  /** Appends `text` (whole lines) durably; writes the header first for a new session. Returns the
   * byte offset where `text` starts. Caller holds the lock. */
  private async writeLines(text: string): Promise<number> {
    if (!this.persisted) {
      const headerLine = JSON.stringify(this.header);
      const handle = await open(this.file, 'wx').catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new SessionFileError(this.file, 'a file with this name already exists') : error;
      });
      try {
        await writeAll(handle, headerLine + '\n' + text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await syncDir(join(this.file, '..'));
      this.persisted = true;
      this.headerRaw = { offset: 0, length: Buffer.byteLength(headerLine) };
      this.ino = (await stat(this.file)).ino;
      const start = Buffer.byteLength(headerLine) + 1;
      this.resumeLineNo = 2;
      this.advance(start + Buffer.byteLength(text), countLines(text));
      return start;
    }
    const prefix = this.endsWithNewline ? '' : '\n';
    const handle = await open(this.file, 'a');
    try {
      await writeAll(handle, prefix + text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const start = this.fileSize + Buffer.byteLength(prefix);
    this.advance(start + Buffer.byteLength(text), countLines(text));
    return start;
  }

  private advance(end: number, linesWritten: number): void {
    // A torn line we just terminated stays in the file as an unreadable line; count it.
    const torn = this.resumeOffset < this.fileSize ? 1 : 0;
    this.resumeLineNo += torn + linesWritten;
    this.resumeOffset = end;
    this.fileSize = end;
    this.endsWithNewline = true;
  }

  /** Indexes lines appended by other writers; reloads everything when the file was replaced. Lock held. */
  private async syncWithDisk(): Promise<SessionEntry[]> {
    let info;
    try {
      info = await stat(this.file);
    } catch {
      throw new SessionFileError(this.file, 'the session file was removed or moved; nothing was written');
    }
    if (info.ino !== this.ino || info.size < this.fileSize) {
      await this.reloadFromDisk();
      return [];
    }
    if (info.size === this.fileSize) return [];
    const scan = await scanLines(this.file, this.resumeOffset, this.resumeLineNo);
    this.loadReport.push(...scan.problems);
    const added: SessionEntry[] = [];
    for (const line of scan.lines) {
      const entry = this.indexLine(line, line.offset, line.length);
      if (entry) added.push(entry);
    }
    this.fileSize = scan.size;
    this.resumeOffset = scan.resumeOffset;
    this.resumeLineNo = scan.resumeLineNo;
    this.endsWithNewline = scan.endsWithNewline;
    for (const entry of added) this.emitAppend(entry);
    return added;
  }

  private async reloadFromDisk(): Promise<void> {
    const scan = await scanOrExplain(this.file);
    const { header, titleSlot } = headerFrom(this.file, scan);
    const leaf = this.leafId;
    this.clearIndex();
    this.header = header.value as SessionHeader;
    this.migratedFrom = undefined;
    this.loadReport.push({ line: 0, kind: 'foreign-rewrite', message: 'the file was replaced by another writer; reloaded' });
    this.ingest(scan, header, titleSlot);
    this.leafId = this.resolveOpenLeaf(leaf);
    for (const listener of this.reloadListeners) listener();
  }

  /** Before the first write to a migrated v1/v2 file: back it up, then write it as v3. */
  private async ensureMigrationWritten(): Promise<void> {
    if (this.migratedFrom === undefined) return;
    await this.rewriteNow((entries) => entries, `.v${this.migratedFrom}.bak`);
  }

  // ---- rewriting ----------------------------------------------------------------------------------

  /**
   * Replaces the file's entries with `mutate(entries)` atomically (temp file + fsync + rename), after
   * copying the original to a backup. Entries that come back unchanged are written byte-for-byte.
   * Lines that could not be read (garbage, duplicates) are kept only in the backup.
   */
  rewriteEntries(mutate: (entries: SessionEntry[]) => SessionEntry[] | void): Promise<{ backupPath: string }> {
    return this.enqueue(async () => {
      this.refuseIfReadOnly();
      if (this.migratedFrom !== undefined) {
        return this.rewriteNow(mutate, `.v${this.migratedFrom}.bak`);
      }
      return this.rewriteNow(mutate, `.${timestampForFileName()}.bak`);
    });
  }

  /**
   * Under the lock: brings the index up to date, runs `mutate`, and renames the result over the file only
   * if the file is still the one it read (docs/reliability.md: a rewrite never renames over a line another
   * writer appended meanwhile). A changed file is read again and the rewrite redone.
   */
  private async rewriteNow(
    mutate: (entries: SessionEntry[]) => SessionEntry[] | void,
    backupSuffix: string,
  ): Promise<{ backupPath: string }> {
    const lock = await acquireLock(this.file);
    try {
      await this.sweepTempsOnce();
      if (!this.persisted) await this.writeLines('');
      for (let attempt = 1; ; attempt++) {
        await this.syncBeforeRewrite();
        this.refuseIfReadOnly();
        const written = await this.tryRewrite(mutate, backupSuffix, lock);
        if (written) return written;
        if (attempt >= MAX_REWRITE_ATTEMPTS) throw new SessionChangedError(this.file);
      }
    } finally {
      await this.releaseLock(lock);
    }
  }

  /** One rewrite attempt; undefined when the file changed under it (nothing was replaced). */
  private async tryRewrite(
    mutate: (entries: SessionEntry[]) => SessionEntry[] | void,
    backupSuffix: string,
    lock: HeldLock,
  ): Promise<{ backupPath: string } | undefined> {
    const read = await fingerprint(this.file);
    if (read.ino !== this.ino || read.size !== this.fileSize) return undefined;
    const original = this.entries.slice();
    const result = mutate(original) ?? original;
    checkRewrite(result);
    const rawFile = await readFile(this.file);
    if (rawFile.length !== read.size) return undefined;
    const backupPath = await backupFile(this.file, backupSuffix);
    const lines = this.rewrittenLines(result, rawFile);
    const committed = await writeFileAtomic(this.file, interleaveNewlines(lines), () => this.stillAsRead(read, lock));
    if (!committed) return undefined;
    this.reindexAfterRewrite(result, lines);
    this.ino = (await stat(this.file)).ino;
    return { backupPath };
  }

  private rewrittenLines(result: SessionEntry[], rawFile: Buffer): Buffer[] {
    const positions = new Map<SessionEntry, number>();
    this.entries.forEach((entry, index) => positions.set(entry, index));
    const headerLine = this.headerRaw
      ? rawFile.subarray(this.headerRaw.offset, this.headerRaw.offset + this.headerRaw.length)
      : Buffer.from(JSON.stringify(this.header));
    const slot = this.titleSlot;
    const lead = slot ? [rawFile.subarray(slot.offset, slot.offset + slot.length), headerLine] : [headerLine];
    return [...lead, ...result.map((entry) => this.serialize(entry, positions.get(entry), rawFile))];
  }

  /** Right before the rename: our lock is still ours and nobody touched the file since `read`. */
  private async stillAsRead(read: FileFingerprint, lock: HeldLock): Promise<boolean> {
    if (!(await lock.stillOwned())) {
      throw new SessionLockError(this.file, 'another writer took the lock over during the rewrite; nothing was rewritten');
    }
    return sameFingerprint(read, await fingerprint(this.file));
  }

  /** A migrated index cannot take in raw lines: any change means reading (and migrating) it again. */
  private async syncBeforeRewrite(): Promise<void> {
    if (this.migratedFrom === undefined) {
      await this.syncWithDisk();
      return;
    }
    const now = await fingerprint(this.file);
    if (now.ino !== this.ino || now.size !== this.fileSize) await this.reloadFromDisk();
  }

  private refuseIfReadOnly(): void {
    if (this.readOnly) throw new SessionReadOnlyError(this.file, this.readOnly.version);
  }

  /** Releases `lock`; a lock another writer took over is left alone and noted in the load report. */
  private async releaseLock(lock: HeldLock): Promise<void> {
    if ((await lock.release()) !== 'not-ours') return;
    this.loadReport.push({ line: 0, kind: 'lock-lost', message: 'another writer took the session lock over while this one held it; its lock was left in place' });
  }

  /** Caller holds the lock (see removeStaleTemps). One directory listing per open, not per append. */
  private async sweepTempsOnce(): Promise<void> {
    if (this.tempsSwept || !this.persisted) return;
    this.tempsSwept = true;
    await removeStaleTemps(this.file);
  }

  /** The raw bytes when the entry is unchanged since load, else fresh JSON. */
  private serialize(entry: SessionEntry, index: number | undefined, rawFile: Buffer): Buffer {
    const offset = index === undefined ? NO_RAW : this.rawOffset[index]!;
    const raw = offset === NO_RAW ? undefined : rawFile.subarray(offset, offset + this.rawLength[index!]!);
    return serializeEntry(entry, raw, this.opaque.has(entry) ? { value: this.opaque.get(entry) } : undefined);
  }

  private reindexAfterRewrite(result: SessionEntry[], lines: Buffer[]): void {
    const opaque = this.opaque;
    const leaf = this.leafId;
    this.clearIndex();
    this.migratedFrom = undefined;
    const lead = this.titleSlot ? 2 : 1;
    const headerOffset = this.titleSlot ? lines[0]!.length + 1 : 0;
    if (this.titleSlot) this.titleSlot = { ...this.titleSlot, offset: 0, length: lines[0]!.length };
    this.headerRaw = { offset: headerOffset, length: lines[lead - 1]!.length };
    let offset = headerOffset + lines[lead - 1]!.length + 1;
    result.forEach((entry, i) => {
      if (opaque.has(entry)) this.opaque.set(entry, opaque.get(entry));
      this.addToIndex(entry, offset, lines[i + lead]!.length);
      offset += lines[i + lead]!.length + 1;
    });
    this.fileSize = offset;
    this.resumeOffset = offset;
    this.resumeLineNo = result.length + lead + 1;
    this.endsWithNewline = true;
    this.leafId = leaf !== null && this.byId.has(leaf) ? leaf : leaf === null ? null : this.lastEntryId();
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private emitAppend(entry: SessionEntry): void {
    for (const listener of this.appendListeners) {
      try {
        listener(entry);
      } catch {
        // a failing listener must not break the store
      }
    }
  }
}

// ---- helpers --------------------------------------------------------------------------------------

/** One line per unknown entry type: "N entries of unknown type X were ignored". */
function unknownTypeProblems(entries: readonly SessionEntry[]): LoadProblem[] {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (!isUnderstoodType(entry.type)) counts.set(entry.type, (counts.get(entry.type) ?? 0) + 1);
  }
  return [...counts].map(([type, count]) => ({
    line: 0,
    kind: 'unknown-type' as const,
    message: `${count} ${count === 1 ? 'entry' : 'entries'} of unknown type ${JSON.stringify(type).slice(0, 80)} ${count === 1 ? 'was' : 'were'} ignored (kept in the file)`,
  }));
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

function copyContext(context: SessionContext): SessionContext {
  return {
    messages: context.messages.slice(),
    thinkingLevel: context.thinkingLevel,
    model: context.model ? { ...context.model } : null,
  };
}

function timestampMs(entry: { timestamp: string }): number {
  return Date.parse(entry.timestamp);
}

function compareTimestamps(a: { timestamp: string }, b: { timestamp: string }): number {
  const x = timestampMs(a);
  const y = timestampMs(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortByTimestamp(list: SessionEntry[]): void {
  list.sort(compareTimestamps);
}

function sortNodes(nodes: SessionTreeNode[]): void {
  nodes.sort((a, b) => compareTimestamps(a.entry, b.entry));
}

export { buildSessionContext };
