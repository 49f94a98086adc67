// The session store: one append-only pi v3 JSONL file, indexed in memory as a tree.
//
// - Loading is tolerant: bad lines are reported in `loadReport` and skipped, never "fixed" on disk.
// - Every append writes one line under a cross-process lock, after reading whatever other writers appended
//   since our last write, then fsyncs before the returned promise resolves.
// - Unchanged entries are written back byte-for-byte on rewrites (their byte ranges are remembered), so
//   unknown entry types and unknown fields survive.
// - Appends and rewrites run one at a time in call order (an in-process queue); state changes (leaf,
//   index) happen when the write has completed.
// This is the writing side; the read side is ReadableSession (readable-session.ts). Their parts: the in-memory
// index (entry-index.ts), the tree (entry-tree.ts), the cached leaf context (leaf-context-cache.ts), the file's
// positions and appends (file-tail.ts), one rewrite attempt (rewrite.ts), the types (store-types.ts).
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentMessage, Usage } from '../core/messages';
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
import { NO_RAW } from './entry-index';
import { SessionChangedError, SessionFileError, SessionReadOnlyError, UnknownEntryError } from './errors';
import { timestampForFileName } from './files';
import { describeReadOnly, readOnlyReasonFor, scanForIndex, type ReadOnlyReason } from './header';
import { generateEntryId } from './ids';
import type { LeafMemory } from './leaf-memory';
import { acquireLock, type HeldLock } from './lock';
import { migrateToCurrentVersion, sessionVersion } from './migrate';
import { newSessionHeader, sessionFileName } from './new-session';
import { ReadableSession } from './readable-session';
import { attemptRewrite, fingerprint, MAX_REWRITE_ATTEMPTS, type RewriteWritten } from './rewrite';
import type { ParsedLine, ScanResult } from './scan';
import { removeStaleTemps } from './stale-temps';
import type { CompactionFields, CreateOptions, OpenOptions } from './store-types';
import type { TitleSlot } from './title-slot';

type Listener<T> = (value: T) => void;
type NewEntry = Omit<SessionEntry, 'id' | 'parentId' | 'timestamp'> & Record<string, unknown>;

export class SessionStore extends ReadableSession {
  /** entries already reported as 'partly-shown' (each is reported once) */
  private readonly partlyShown = new Set<string>();
  /** set when the file is v1/v2 and was migrated in memory only; cleared once written as v3 */
  migratedFrom: number | undefined;
  /** set when the file must never be written (a newer version's session): appends and rewrites refuse */
  readOnly: ReadOnlyReason | undefined;

  /** whether this store already cleared the temps killed rewrites left (once per open, under the lock) */
  private tempsSwept = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly appendListeners = new Set<Listener<SessionEntry>>();
  private readonly reloadListeners = new Set<Listener<void>>();
  private readonly leafMemory: LeafMemory | undefined;

  private constructor(file: string, header: SessionHeader, persisted: boolean, leafMemory: LeafMemory | undefined) {
    super(file, header, persisted);
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
    const { scan, header, titleSlot } = await scanForIndex(file);
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
    this.index.readBodiesFrom(this.file, scan.ino);
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
    for (const line of rest) {
      if (line !== header && line.offset !== slotOffset) this.index.indexLine(line, useRaw ? line.offset : NO_RAW, line.length);
    }
    this.loadReport.push(...this.index.unknownTypeProblems());
    this.tail.takeScan(scan, useRaw ? { offset: header.offset, length: header.length } : undefined, titleSlot);
  }

  // ---- moving the leaf ----------------------------------------------------------------------------

  /** Moves the leaf to an existing entry; the next append creates a sibling branch there. */
  branch(id: string): void {
    if (!this.index.has(id)) throw new UnknownEntryError(id);
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
    if (fromId !== null && !this.index.has(fromId)) return Promise.reject(new UnknownEntryError(fromId));
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
    if (!this.index.has(targetId)) return Promise.reject(new UnknownEntryError(targetId));
    return this.append({ type: 'label', targetId, label: label ? label : undefined }) as Promise<LabelEntry>;
  }

  appendSessionInfo(name: string | undefined): Promise<SessionInfoEntry> {
    const trimmed = name?.trim();
    return this.append({ type: 'session_info', name: trimmed ? trimmed : undefined }) as Promise<SessionInfoEntry>;
  }

  /** Writes the header now for a session made by `create()` (normally deferred to the first append). */
  ensureFile(): Promise<void> {
    return this.enqueue(async () => {
      if (this.tail.persisted) return;
      const lock = await acquireLock(this.file);
      try {
        await this.tail.writeLines('', this.header);
      } finally {
        await this.releaseLock(lock);
      }
    });
  }

  /** Reads entries other writers appended since our last read. Returns them (file order). */
  refresh(): Promise<SessionEntry[]> {
    return this.enqueue(async () => (this.tail.persisted ? this.syncWithDisk() : []));
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
        if (this.tail.persisted) await this.syncWithDisk();
        this.refuseIfReadOnly(); // the file may have been replaced by a newer version's
        beforeCreate?.();
        entry = withoutUndefined({
          type: fields.type,
          id: generateEntryId((id) => this.index.has(id)),
          parentId: this.leafId,
          timestamp: new Date().toISOString(),
          ...fields,
        }) as SessionEntry;
        const line = JSON.stringify(entry);
        const offset = await this.tail.writeLines(line + '\n', this.header);
        this.index.add(entry, offset, Buffer.byteLength(line));
      } finally {
        await this.releaseLock(lock);
      }
      this.setLeaf(entry.id);
      this.emitAppend(entry);
      return entry;
    });
  }

  /** Indexes lines appended by other writers; reloads everything when the file was replaced. Lock held. */
  private async syncWithDisk(): Promise<SessionEntry[]> {
    let info;
    try {
      info = await stat(this.file);
    } catch {
      throw new SessionFileError(this.file, 'the session file was removed or moved; nothing was written');
    }
    if (this.tail.wasReplaced(info)) {
      await this.reloadFromDisk();
      return [];
    }
    if (this.tail.isAsRead(info)) return [];
    const scan = await this.tail.readAppended();
    this.loadReport.push(...scan.problems);
    const added: SessionEntry[] = [];
    for (const line of scan.lines) {
      const entry = this.index.indexLine(line, line.offset, line.length);
      if (entry) added.push(entry);
    }
    for (const entry of added) this.emitAppend(entry);
    return added;
  }

  private async reloadFromDisk(): Promise<void> {
    const { scan, header, titleSlot } = await scanForIndex(this.file);
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
      if (!this.tail.persisted) await this.tail.writeLines('', this.header);
      for (let attempt = 1; ; attempt++) {
        await this.syncBeforeRewrite();
        this.refuseIfReadOnly();
        const source = { file: this.file, header: this.header, tail: this.tail, index: this.index };
        const written = await attemptRewrite(source, mutate, backupSuffix, lock);
        if (written) {
          this.reindexAfterRewrite(written);
          await this.tail.readInode();
          return { backupPath: written.backupPath };
        }
        if (attempt >= MAX_REWRITE_ATTEMPTS) throw new SessionChangedError(this.file);
      }
    } finally {
      await this.releaseLock(lock);
    }
  }

  /** A migrated index cannot take in raw lines: any change means reading (and migrating) it again. */
  private async syncBeforeRewrite(): Promise<void> {
    if (this.migratedFrom === undefined) {
      await this.syncWithDisk();
      return;
    }
    if (!this.tail.isAsRead(await fingerprint(this.file))) await this.reloadFromDisk();
  }

  private reindexAfterRewrite({ result, lines }: RewriteWritten): void {
    const leaf = this.leafId;
    const previous = this.clearIndex();
    this.migratedFrom = undefined;
    const ranges = this.tail.placeRewritten(lines);
    result.forEach((entry, i) => {
      this.index.keepOpaqueFrom(previous, entry);
      this.index.add(entry, ranges[i]!.offset, ranges[i]!.length);
    });
    this.leafId = leaf !== null && this.index.has(leaf) ? leaf : leaf === null ? null : this.index.lastEntryId();
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
    if (this.tempsSwept || !this.tail.persisted) return;
    this.tempsSwept = true;
    await removeStaleTemps(this.file);
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

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}
