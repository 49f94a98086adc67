// The session store's in-memory index of one file's entries: file order, lookup by id, children, labels and
// names, and where each entry's original bytes sit in the file (so an unchanged entry is written back byte for
// byte). Apart from store.ts so the store itself keeps only the file side: locking, appending, rewriting.
// Lines whose kind defers its body are indexed from their heads (line-head.ts) and parsed the first time the
// entry is asked for (entry-bodies.ts): opening a session and building its leaf context parse only what the
// context needs (docs/architecture.md "Opening a session"); `entries` reads every body.
import { pathToRoot, type PathView } from './context';
import type { SessionEntry } from './entries';
import { BodyReader, matchesHead, type BodyRead, type DeferredLine } from './entry-bodies';
import { isUnderstoodType } from './entry-types';
import type { LineHead } from './line-head';
import { serializeEntry } from './rewrite';
import type { LoadProblem, ParsedLine } from './scan';
import { describeEntryProblem, entryProblem, hasEntryBase } from './schema';
import type { InvalidEntry } from './store-types';

/** The offset of an entry with no original bytes in the file (appended by us, or read from a migrated file). */
export const NO_RAW = -1;

/** Reading bodies one by one costs a file open each: past this many, the index reads every body at once. */
const SINGLE_READS_BEFORE_ALL = 64;

/** One indexed line: its head, where its bytes are, and its entry once parsed. */
interface Slot {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  lineNo: number;
  offset: number;
  length: number;
  entry: SessionEntry | undefined;
}

export class EntryIndex {
  private readonly slots: Slot[] = [];
  private readonly byId = new Map<string, Slot>();
  /** every entry in file order, once every body was read (kept up to date by `add` from then on) */
  private list: SessionEntry[] | undefined;
  private deferred = 0;
  private singleReads = 0;
  private bodies: BodyReader | undefined;
  /** parent id → children in file order; built on first use (opening a session does not need it) */
  private childLists: Map<string, Slot[]> | undefined;
  private readonly unsortedChildren = new Set<string>();
  private readonly labels = new Map<string, { label: string; timestamp: string }>();
  private latestSessionName: string | undefined;
  /** omp's latest `title_change` title */
  private latestOmpTitle: string | undefined;
  /** malformed entries' stand-ins → the value read from the file (written back as it was) */
  private readonly opaque = new WeakMap<object, unknown>();

  /** `report` receives the problems found while indexing lines (the store's load report). */
  constructor(private readonly report: (problem: LoadProblem) => void) {}

  /** Where deferred lines are read from: the file as scanned (its inode). */
  readBodiesFrom(file: string, ino: number): void {
    this.bodies = new BodyReader(file, ino);
  }

  /** Indexes one line read from the file; a line that is not an entry, or repeats an id, is reported and skipped. */
  indexLine(line: ParsedLine, offset: number, length: number): SessionEntry | undefined {
    if (line.head && offset !== NO_RAW) return this.indexHead(line, line.head, offset, length);
    const value = line.value;
    if (!hasEntryBase(value)) {
      this.report({ line: line.lineNo, kind: 'invalid-entry', message: `not a session entry (${describeEntryProblem(value)}); line skipped` });
      return undefined;
    }
    if (this.isDuplicate(value.id, line.lineNo)) return undefined;
    const entry = this.checked(value, line.lineNo);
    this.add(entry, offset, length, line.lineNo);
    return entry;
  }

  /** A deferred line: indexed from its head; its entry is made when first asked for. */
  private indexHead(line: ParsedLine, head: LineHead, offset: number, length: number): SessionEntry | undefined {
    if (this.isDuplicate(head.id, line.lineNo)) return undefined;
    const slot = newSlot(head, line.lineNo, offset, length, undefined);
    this.pushSlot(slot);
    this.deferred++;
    this.list = undefined;
    return undefined;
  }

  private isDuplicate(id: string, lineNo: number): boolean {
    if (!this.byId.has(id)) return false;
    this.report({ line: lineNo, kind: 'duplicate-id', message: `entry id ${id} already used by an earlier line; this line is ignored` });
    return true;
  }

  /** The entry for a parsed value, or its stand-in when its known type has an invalid shape (reported). */
  private checked(value: Record<string, unknown> & LineHead, lineNo: number): SessionEntry {
    if (entryProblem(value) === undefined) return value as unknown as SessionEntry;
    const problem = describeEntryProblem(value);
    this.report({ line: lineNo, kind: 'invalid-entry', message: `${value.type} entry ${value.id} is malformed (${problem}); kept in the tree, ignored in context` });
    return this.standIn(value, problem, value);
  }

  private standIn(head: LineHead, problem: string, original: unknown): SessionEntry {
    const stand: InvalidEntry = { type: 'invalid_entry', id: head.id, parentId: head.parentId, timestamp: head.timestamp, originalType: head.type, problem };
    const entry = stand as unknown as SessionEntry;
    this.opaque.set(entry, original);
    return entry;
  }

  /** Adds an entry whose line starts at byte `offset` (NO_RAW: none) and is `length` bytes long. */
  add(entry: SessionEntry, offset: number, length: number, lineNo = 0): void {
    const slot = newSlot(entry, lineNo, offset, length, entry);
    this.pushSlot(slot);
    this.list?.push(entry);
    this.noteEntry(entry);
  }

  private pushSlot(slot: Slot): void {
    this.slots.push(slot);
    this.byId.set(slot.id, slot);
    if (this.childLists) this.addChild(this.childLists, slot);
  }

  /** Labels and names: kept current as entries are added (their kinds never defer a body). */
  private noteEntry(entry: SessionEntry): void {
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

  // ---- reading deferred bodies ---------------------------------------------------------------------

  /** The entries of `slots`, reading the bodies not read yet in one batch (problems are reported then). */
  private entriesOf(slots: readonly Slot[]): SessionEntry[] {
    const missing = slots.filter((slot) => slot.entry === undefined);
    if (missing.length > 0) this.readBodies(missing);
    return slots.map((slot) => slot.entry!);
  }

  /** One entry; after many single reads (a caller walking the tree) the rest is read in one batch instead. */
  private entryOf(slot: Slot): SessionEntry {
    if (slot.entry) return slot.entry;
    if (++this.singleReads > SINGLE_READS_BEFORE_ALL) this.readAll();
    return slot.entry ?? this.entriesOf([slot])[0]!;
  }

  private readBodies(missing: Slot[]): void {
    const ordered = missing.slice().sort((a, b) => a.offset - b.offset);
    const lines: DeferredLine[] = ordered.map((slot) => ({ lineNo: slot.lineNo, offset: slot.offset, length: slot.length, head: slot }));
    const reads = this.bodies ? this.bodies.read(lines) : lines.map(() => ({ problem: 'no file to read it from' }));
    ordered.forEach((slot, i) => this.settle(slot, reads[i]!));
  }

  /** A deferred slot gets its entry: the parsed line, or a reported stand-in that keeps its place in the tree. */
  private settle(slot: Slot, read: BodyRead): void {
    const head: LineHead = { type: slot.type, id: slot.id, parentId: slot.parentId, timestamp: slot.timestamp };
    let entry: SessionEntry;
    if ('problem' in read) {
      this.report({ line: slot.lineNo, kind: 'invalid-json', message: `${read.problem}; ${slot.type} entry ${slot.id} kept in the tree as unreadable, ignored in context` });
      entry = this.standIn(head, read.problem, undefined);
    } else if (!matchesHead(read.value, head)) {
      const problem = 'the line names its type, id, parent or time twice, differently';
      this.report({ line: slot.lineNo, kind: 'invalid-entry', message: `${slot.type} entry ${slot.id}: ${problem}; kept in the tree, ignored in context` });
      entry = this.standIn(head, problem, read.value);
    } else {
      entry = this.checked(read.value as Record<string, unknown> & LineHead, slot.lineNo);
    }
    slot.entry = entry;
    this.deferred--;
  }

  /** Reads every body not read yet (their problems join the load report). */
  readAll(): void {
    if (this.deferred > 0) this.entriesOf(this.slots);
  }

  // ---- lookups ---------------------------------------------------------------------------------------

  /** All entries in file order, every body read (not a copy: callers that keep or change it copy it). */
  get entries(): readonly SessionEntry[] {
    if (this.list) return this.list;
    const list = this.entriesOf(this.slots);
    this.list = list;
    return list;
  }

  get count(): number {
    return this.slots.length;
  }

  get(id: string): SessionEntry | undefined {
    const slot = this.byId.get(id);
    return slot ? this.entryOf(slot) : undefined;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  lastEntryId(): string | null {
    return this.slots.length > 0 ? this.slots[this.slots.length - 1]!.id : null;
  }

  /** True for entries that stand in for a malformed line (see `InvalidEntry`). */
  isInvalid(entry: SessionEntry): boolean {
    return this.opaque.has(entry);
  }

  isRoot(entry: { id: string; parentId: string | null }): boolean {
    return entry.parentId === null || entry.parentId === entry.id || !this.byId.has(entry.parentId);
  }

  /** Path root→entry. */
  pathTo(entry: SessionEntry): SessionEntry[] {
    return this.entriesOf(this.slotPath(entry));
  }

  /** Path root→entry for context building: types and ids now, bodies read only when asked for (context.ts). */
  pathView(entry: SessionEntry): PathView {
    const slots = this.slotPath(entry);
    return {
      length: slots.length,
      type: (i) => slots[i]!.entry?.type ?? slots[i]!.type,
      id: (i) => slots[i]!.id,
      entry: (i) => this.entryOf(slots[i]!),
      entries: (from, to) => this.entriesOf(slots.slice(from, to)),
    };
  }

  private slotPath(entry: SessionEntry): Slot[] {
    const slot = this.byId.get(entry.id) ?? newSlot(entry, 0, NO_RAW, 0, entry);
    return pathToRoot(slot, this.byId);
  }

  /** Children of `id`, oldest first by entry timestamp (stable for equal timestamps). */
  children(id: string): SessionEntry[] {
    const list = this.childIndex().get(id);
    if (!list) return [];
    if (this.unsortedChildren.has(id)) {
      list.sort(compareTimestamps);
      this.unsortedChildren.delete(id);
    }
    return this.entriesOf(list);
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
    return entries.map((entry) => this.serialize(entry, this.byId.get(entry.id), rawFile));
  }

  /** One line per unknown entry type: "N entries of unknown type X were ignored". */
  unknownTypeProblems(): LoadProblem[] {
    const counts = new Map<string, number>();
    for (const slot of this.slots) {
      const type = slot.entry?.type ?? slot.type;
      if (!isUnderstoodType(type)) counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return [...counts].map(([type, count]) => ({
      line: 0,
      kind: 'unknown-type' as const,
      message: `${count} ${count === 1 ? 'entry' : 'entries'} of unknown type ${JSON.stringify(type).slice(0, 80)} ${count === 1 ? 'was' : 'were'} ignored (kept in the file)`,
    }));
  }

  private serialize(entry: SessionEntry, slot: Slot | undefined, rawFile: Buffer): Buffer {
    const offset = slot && slot.entry === entry ? slot.offset : NO_RAW;
    const raw = offset === NO_RAW ? undefined : rawFile.subarray(offset, offset + slot!.length);
    return serializeEntry(entry, raw, this.opaque.has(entry) ? { value: this.opaque.get(entry) } : undefined);
  }

  private addChild(children: Map<string, Slot[]>, slot: Slot): void {
    const parentId = slot.parentId;
    if (parentId === null || parentId === slot.id) return;
    const siblings = children.get(parentId);
    if (siblings === undefined) children.set(parentId, [slot]);
    else {
      if (compareTimestamps(siblings[siblings.length - 1]!, slot) > 0) this.unsortedChildren.add(parentId);
      siblings.push(slot);
    }
  }

  private childIndex(): Map<string, Slot[]> {
    if (this.childLists) return this.childLists;
    const children = new Map<string, Slot[]>();
    for (const slot of this.slots) this.addChild(children, slot);
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

/** Every slot is made here, with one shape (the index's loops stay monomorphic). */
function newSlot(head: LineHead, lineNo: number, offset: number, length: number, entry: SessionEntry | undefined): Slot {
  return { id: head.id, parentId: head.parentId, type: head.type, timestamp: head.timestamp, lineNo, offset, length, entry };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
