// The session store's in-memory index of one file's entries: file order, lookup by id, children, labels and
// names, and where each entry's original bytes sit in the file (so an unchanged entry is written back byte for
// byte). Apart from store.ts so the store itself keeps only the file side: locking, appending, rewriting.
import { pathToRoot } from './context';
import type { SessionEntry } from './entries';
import { isUnderstoodType } from './entry-types';
import { serializeEntry } from './rewrite';
import type { LoadProblem, ParsedLine } from './scan';
import { describeEntryProblem, entryProblem, hasEntryBase } from './schema';
import type { InvalidEntry } from './store-types';

/** The offset of an entry with no original bytes in the file (appended by us, or read from a migrated file). */
export const NO_RAW = -1;

export class EntryIndex {
  private readonly list: SessionEntry[] = [];
  private readonly rawOffset: number[] = [];
  private readonly rawLength: number[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  /** parent id → children in file order; built on first use (opening a session does not need it) */
  private childLists: Map<string, SessionEntry[]> | undefined;
  private readonly unsortedChildren = new Set<string>();
  private readonly labels = new Map<string, { label: string; timestamp: string }>();
  private latestSessionName: string | undefined;
  /** omp's latest `title_change` title */
  private latestOmpTitle: string | undefined;
  /** malformed entries' stand-ins → the value read from the file (written back as it was) */
  private readonly opaque = new WeakMap<object, unknown>();

  /** `report` receives the problems found while indexing lines (the store's load report). */
  constructor(private readonly report: (problem: LoadProblem) => void) {}

  /** Indexes one line read from the file; a line that is not an entry, or repeats an id, is reported and skipped. */
  indexLine(line: ParsedLine, offset: number, length: number): SessionEntry | undefined {
    const value = line.value;
    if (!hasEntryBase(value)) {
      this.report({ line: line.lineNo, kind: 'invalid-entry', message: `not a session entry (${describeEntryProblem(value)}); line skipped` });
      return undefined;
    }
    if (this.byId.has(value.id)) {
      this.report({ line: line.lineNo, kind: 'duplicate-id', message: `entry id ${value.id} already used by an earlier line; this line is ignored` });
      return undefined;
    }
    let entry = value as unknown as SessionEntry;
    if (entryProblem(value) !== undefined) {
      const problem = describeEntryProblem(value);
      const stand: InvalidEntry = { type: 'invalid_entry', id: value.id, parentId: value.parentId, timestamp: value.timestamp, originalType: value.type, problem };
      entry = stand as unknown as SessionEntry;
      this.opaque.set(entry, value);
      this.report({
        line: line.lineNo,
        kind: 'invalid-entry',
        message: `${value.type} entry ${value.id} is malformed (${problem}); kept in the tree, ignored in context`,
      });
    }
    this.add(entry, offset, length);
    return entry;
  }

  /** Adds an entry whose line starts at byte `offset` (NO_RAW: none) and is `length` bytes long. */
  add(entry: SessionEntry, offset: number, length: number): void {
    this.list.push(entry);
    this.rawOffset.push(offset);
    this.rawLength.push(length);
    this.byId.set(entry.id, entry);
    if (this.childLists) this.addChild(this.childLists, entry);
    if (entry.type === 'label') {
      if (entry.label) this.labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
      else this.labels.delete(entry.targetId);
    } else if (entry.type === 'session_info') {
      this.latestSessionName = typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : undefined;
    } else if ((entry.type as string) === 'title_change') {
      this.latestOmpTitle = nonEmpty((entry as { title?: unknown }).title) ?? this.latestOmpTitle;
    }
  }

  /** Keeps `entry`'s original value from `previous` (a rewrite re-indexes the same entry objects). */
  keepOpaqueFrom(previous: EntryIndex, entry: SessionEntry): void {
    if (previous.opaque.has(entry)) this.opaque.set(entry, previous.opaque.get(entry));
  }

  /** All entries in file order (not a copy: callers that keep or change it copy it). */
  get entries(): readonly SessionEntry[] {
    return this.list;
  }

  get count(): number {
    return this.list.length;
  }

  get(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  lastEntryId(): string | null {
    return this.list.length > 0 ? this.list[this.list.length - 1]!.id : null;
  }

  /** True for entries that stand in for a malformed line (see `InvalidEntry`). */
  isInvalid(entry: SessionEntry): boolean {
    return this.opaque.has(entry);
  }

  isRoot(entry: SessionEntry): boolean {
    return entry.parentId === null || entry.parentId === entry.id || !this.byId.has(entry.parentId);
  }

  /** Path root→entry. */
  pathTo(entry: SessionEntry): SessionEntry[] {
    return pathToRoot(entry, this.byId);
  }

  /** Children of `id`, oldest first by entry timestamp (stable for equal timestamps). */
  children(id: string): SessionEntry[] {
    const list = this.childIndex().get(id);
    if (!list) return [];
    if (this.unsortedChildren.has(id)) {
      list.sort(compareTimestamps);
      this.unsortedChildren.delete(id);
    }
    return list.slice();
  }

  /** How many children `id` has (O(1), no copy). */
  childCount(id: string): number {
    return this.childIndex().get(id)?.length ?? 0;
  }

  /** The current label of `id` and when it was set (the label entry's timestamp). */
  label(id: string): { label: string; timestamp: string } | undefined {
    return this.labels.get(id);
  }

  /** The session_info name; else omp's title (its slot line, its latest title_change, its header). */
  sessionName(slotTitle: string | undefined, headerTitle: unknown): string | undefined {
    return this.latestSessionName ?? slotTitle ?? this.latestOmpTitle ?? nonEmpty(headerTitle);
  }

  /** Each entry's file text: the original bytes of `rawFile` when unchanged since read, else fresh JSON. */
  serializeAll(entries: readonly SessionEntry[], rawFile: Buffer): Buffer[] {
    const positions = new Map<SessionEntry, number>();
    this.list.forEach((entry, index) => positions.set(entry, index));
    return entries.map((entry) => this.serialize(entry, positions.get(entry), rawFile));
  }

  /** One line per unknown entry type: "N entries of unknown type X were ignored". */
  unknownTypeProblems(): LoadProblem[] {
    const counts = new Map<string, number>();
    for (const entry of this.list) {
      if (!isUnderstoodType(entry.type)) counts.set(entry.type, (counts.get(entry.type) ?? 0) + 1);
    }
    return [...counts].map(([type, count]) => ({
      line: 0,
      kind: 'unknown-type' as const,
      message: `${count} ${count === 1 ? 'entry' : 'entries'} of unknown type ${JSON.stringify(type).slice(0, 80)} ${count === 1 ? 'was' : 'were'} ignored (kept in the file)`,
    }));
  }

  private serialize(entry: SessionEntry, index: number | undefined, rawFile: Buffer): Buffer {
    const offset = index === undefined ? NO_RAW : this.rawOffset[index]!;
    const raw = offset === NO_RAW ? undefined : rawFile.subarray(offset, offset + this.rawLength[index!]!);
    return serializeEntry(entry, raw, this.opaque.has(entry) ? { value: this.opaque.get(entry) } : undefined);
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
    if (this.childLists) return this.childLists;
    const children = new Map<string, SessionEntry[]>();
    for (const entry of this.list) this.addChild(children, entry);
    this.childLists = children;
    return children;
  }
}

/** Oldest first by entry timestamp (0 for equal or unreadable timestamps, so sorts stay stable). */
export function compareTimestamps(a: { timestamp: string }, b: { timestamp: string }): number {
  const x = Date.parse(a.timestamp);
  const y = Date.parse(b.timestamp);
  return x < y ? -1 : x > y ? 1 : 0;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
