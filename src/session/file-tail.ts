// The session file as the store last read or wrote it: its inode and size, where an unread line would start,
// and where the header and omp's title slot line sit. Appends and rewrites check the file on disk against it
// (docs/reliability.md); apart from store.ts so the store reads as open/append/rewrite, not byte arithmetic.
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionHeader } from './entries';
import { SessionFileError } from './errors';
import { syncDir, writeAll } from './files';
import { scanLines, type ScanResult } from './scan';
import type { TitleSlot } from './title-slot';

interface ByteRange {
  offset: number;
  length: number;
}

export class FileTail {
  private ino = 0;
  private fileSize = 0;
  private resumeOffset = 0;
  private resumeLineNo = 1;
  private endsWithNewline = true;
  /** the header line's bytes; undefined when the header changed in memory (a migrated file) */
  private headerRaw: ByteRange | undefined;
  /** omp's title slot line before the header, if the file has one (kept first on rewrites) */
  private slot: TitleSlot | undefined;

  /** `persisted`: false for a session made by `create()` until its first write. */
  constructor(
    readonly file: string,
    private written: boolean,
  ) {}

  get persisted(): boolean {
    return this.written;
  }

  get titleSlot(): TitleSlot | undefined {
    return this.slot;
  }

  /** After reading the whole file: everything comes from `scan`. */
  takeScan(scan: ScanResult, headerRaw: ByteRange | undefined, titleSlot: TitleSlot | undefined): void {
    this.headerRaw = headerRaw;
    this.slot = titleSlot;
    this.ino = scan.ino;
    this.takeEnd(scan);
  }

  /** The file is another file now, or shorter than what we read: it was replaced and must be read again. */
  wasReplaced(now: { ino: number; size: number }): boolean {
    return now.ino !== this.ino || now.size < this.fileSize;
  }

  /** The file is exactly as we last read or wrote it. */
  isAsRead(now: { ino: number; size: number }): boolean {
    return now.ino === this.ino && now.size === this.fileSize;
  }

  /** Reads the lines other writers appended since our last read or write. */
  async readAppended(): Promise<ScanResult> {
    const scan = await scanLines(this.file, this.resumeOffset, this.resumeLineNo);
    this.takeEnd(scan);
    return scan;
  }

  /** Appends `text` (whole lines) durably; writes `header` first for a new session. Returns the byte offset
   * where `text` starts. Caller holds the lock. */
  async writeLines(text: string, header: SessionHeader): Promise<number> {
    if (!this.written) return this.writeNewFile(text, header);
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

  /** The lines a rewrite keeps before the entries: the title slot (if any) and the header, as they were. */
  leadLines(rawFile: Buffer, header: SessionHeader): Buffer[] {
    const headerLine = this.headerRaw
      ? rawFile.subarray(this.headerRaw.offset, this.headerRaw.offset + this.headerRaw.length)
      : Buffer.from(JSON.stringify(header));
    const slot = this.slot;
    return slot ? [rawFile.subarray(slot.offset, slot.offset + slot.length), headerLine] : [headerLine];
  }

  /** After a rewrite wrote `lines` (lead lines first, see `leadLines`): where each entry's line now sits. */
  placeRewritten(lines: Buffer[]): ByteRange[] {
    const lead = this.slot ? 2 : 1;
    const headerOffset = this.slot ? lines[0]!.length + 1 : 0;
    if (this.slot) this.slot = { ...this.slot, offset: 0, length: lines[0]!.length };
    this.headerRaw = { offset: headerOffset, length: lines[lead - 1]!.length };
    let offset = headerOffset + lines[lead - 1]!.length + 1;
    const ranges = lines.slice(lead).map((line) => {
      const range = { offset, length: line.length };
      offset += line.length + 1;
      return range;
    });
    this.fileSize = offset;
    this.resumeOffset = offset;
    this.resumeLineNo = lines.length + 1;
    this.endsWithNewline = true;
    return ranges;
  }

  /** After the file was replaced by our own rewrite: remember the new file's inode. */
  async readInode(): Promise<void> {
    this.ino = (await stat(this.file)).ino;
  }

  private async writeNewFile(text: string, header: SessionHeader): Promise<number> {
    const headerLine = JSON.stringify(header);
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
    this.written = true;
    this.headerRaw = { offset: 0, length: Buffer.byteLength(headerLine) };
    await this.readInode();
    const start = Buffer.byteLength(headerLine) + 1;
    this.resumeLineNo = 2;
    this.advance(start + Buffer.byteLength(text), countLines(text));
    return start;
  }

  private takeEnd(scan: ScanResult): void {
    this.fileSize = scan.size;
    this.resumeOffset = scan.resumeOffset;
    this.resumeLineNo = scan.resumeLineNo;
    this.endsWithNewline = scan.endsWithNewline;
  }

  private advance(end: number, linesWritten: number): void {
    // A torn line we just terminated stays in the file as an unreadable line; count it.
    const torn = this.resumeOffset < this.fileSize ? 1 : 0;
    this.resumeLineNo += torn + linesWritten;
    this.resumeOffset = end;
    this.fileSize = end;
    this.endsWithNewline = true;
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
