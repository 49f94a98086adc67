// What the Sessions list shows of a session (name, first user message, entry and branch counts), read
// line by line without building the store's index. The scan can be fed more text later: session files
// are append-only, so the summary of a growing session is kept current by reading only what was added.
import { userContentText } from '../core/messages';
import { SessionFileError } from './errors';
import { parseJsonObject, withoutByteOrderMark } from './json-object';
import { isTitleSlot } from './title-slot';

/** The leading fields as pi (and Arbor) write them: lets the scan skip JSON.parse for most lines. */
const ENTRY_PREFIX = /^\{"type":"([^"\\]+)","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)")/;

interface EntryHead {
  type: string;
  id: string;
  parentId: string | undefined;
  /** the whole line parsed, when the prefix did not match */
  parsed: Record<string, unknown> | undefined;
}

export class SummaryScan {
  header: Record<string, unknown> | undefined;
  /** the latest session_info name */
  private infoName: string | undefined;
  /** omp: the title slot's title, the latest title_change's or the header's */
  private slotTitle: string | undefined;
  private ompTitle: string | undefined;
  private lineCount = 0;
  firstUserMessage: string | undefined;
  entryCount = 0;
  /** entries without children, kept as entries and parents arrive in any order */
  tips = 0;
  private readonly ids = new Set<string>();
  private readonly parents = new Set<string>();

  constructor(private readonly file: string) {}

  /** What the Sessions list shows as the name (the same order as SessionStore.getSessionName). */
  get name(): string | undefined {
    return this.infoName ?? this.slotTitle ?? this.ompTitle;
  }

  /**
   * Reads `text`, whole lines. `endsFile`: the text runs to the end of the file, so its last line may be
   * torn (no newline yet); that line is parsed in full instead of trusted by its prefix.
   */
  feed(text: string, endsFile: boolean): void {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end).trim();
      const mayBeTorn = endsFile && end >= text.length - 1 && !text.endsWith('\n');
      start = end + 1;
      if (line) this.readLine(line, mayBeTorn);
    }
  }

  private readLine(line: string, mayBeTorn: boolean): void {
    if (!this.header) {
      const header = parseJsonObject(withoutByteOrderMark(line));
      if (this.lineCount++ === 0 && isTitleSlot(header)) {
        this.slotTitle = typeof header.title === 'string' && header.title.trim() ? header.title.trim() : undefined;
        return;
      }
      if (!header || header.type !== 'session' || typeof header.id !== 'string') {
        throw new SessionFileError(this.file, 'first line is not a session header');
      }
      this.header = header;
      if (typeof header.title === 'string' && header.title.trim()) this.ompTitle ??= header.title.trim();
      return;
    }
    const head = entryHead(line, mayBeTorn);
    if (!head || this.ids.has(head.id)) return;
    this.addEntry(head.id, head.parentId);
    if (head.type === 'session_info') {
      const value = (head.parsed ?? parseJsonObject(line))?.name;
      this.infoName = typeof value === 'string' && value.trim() ? value.trim() : undefined;
    } else if (head.type === 'title_change') {
      const value = (head.parsed ?? parseJsonObject(line))?.title;
      if (typeof value === 'string' && value.trim()) this.ompTitle = value.trim();
    } else if (this.firstUserMessage === undefined && head.type === 'message' && line.includes('"role":"user"')) {
      const message = (head.parsed ?? parseJsonObject(line))?.message as { role?: unknown; content?: unknown } | undefined;
      if (message?.role === 'user' && (typeof message.content === 'string' || Array.isArray(message.content))) {
        this.firstUserMessage = userContentText(message.content as string);
      }
    }
  }

  /** Keeps `tips` = |ids without a child| as entries arrive (a child may come before its parent). */
  private addEntry(id: string, parentId: string | undefined): void {
    this.ids.add(id);
    this.entryCount++;
    if (!this.parents.has(id)) this.tips++;
    if (parentId === undefined || parentId === id || this.parents.has(parentId)) return;
    this.parents.add(parentId);
    if (this.ids.has(parentId)) this.tips--;
  }
}

function entryHead(line: string, mayBeTorn: boolean): EntryHead | undefined {
  const match = mayBeTorn ? null : ENTRY_PREFIX.exec(line);
  if (match) return { type: match[1]!, id: match[2]!, parentId: match[3], parsed: undefined };
  const parsed = parseJsonObject(line);
  if (!parsed || typeof parsed.type !== 'string' || typeof parsed.id !== 'string') return undefined;
  return { type: parsed.type, id: parsed.id, parentId: typeof parsed.parentId === 'string' ? parsed.parentId : undefined, parsed };
}
