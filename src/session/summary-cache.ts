// Summaries of the listed sessions, kept between listings. The Sessions view lists again after every
// turn; without this, each listing re-read every session file whole, so a turn cost as much as the
// sum of all sessions. Unchanged files (same inode, size and mtime) are not read at all. The session
// being written (`growing`) keeps its scan, and because session files are append-only, a later listing
// reads only the bytes added since. Anything else (a rewrite: new inode; a shrink; a torn last line)
// is read again in full.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { SummaryScan } from './summary-scan';
import { summaryOf, type SessionSummary } from './catalog';

interface Cached {
  ino: number;
  size: number;
  mtimeMs: number;
  summary: SessionSummary;
  /** only for the growing session: the scan to continue, valid up to `size` */
  scan?: SummaryScan;
}

export class SessionSummaryCache {
  private readonly cached = new Map<string, Cached>();
  /** bytes read from session files so far (tests reset it to see what one listing read) */
  bytesRead = 0;

  async summarize(file: string, growing = false): Promise<SessionSummary> {
    const info = await stat(file);
    const known = this.cached.get(file);
    if (known && sameFile(known, info)) return known.summary;
    if (growing && known?.scan && known.ino === info.ino && info.size > known.size) {
      const added = await this.readRange(file, known.size, info.size);
      if (added.endsWith('\n')) return this.remember(file, info, known.scan, added, true);
    }
    const whole = await this.readRange(file, 0, info.size);
    return this.remember(file, info, new SummaryScan(file), whole, growing);
  }

  private async readRange(file: string, from: number, to: number): Promise<string> {
    const bytes = await readBytes(file, from, to);
    this.bytesRead += bytes.length;
    return bytes.toString('utf8');
  }

  /** Forgets files that are no longer listed (deleted, moved). */
  retainOnly(files: ReadonlySet<string>): void {
    for (const file of this.cached.keys()) if (!files.has(file)) this.cached.delete(file);
  }

  private remember(file: string, info: Stats, scan: SummaryScan, text: string, keepScan: boolean): SessionSummary {
    this.cached.delete(file);
    scan.feed(text, true);
    const summary = summaryOf(file, scan, info.mtime);
    // A scan holds every entry id of its session; keep it only where it saves work (the growing file),
    // and only while its text ended on a whole line (a torn tail would be read twice).
    const resumable = keepScan && text.endsWith('\n');
    this.cached.set(file, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, summary, ...(resumable ? { scan } : {}) });
    return summary;
  }
}

function sameFile(known: Cached, info: Stats): boolean {
  return known.ino === info.ino && known.size === info.size && known.mtimeMs === info.mtimeMs;
}

async function readBytes(file: string, from: number, to: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(to - from);
    let done = 0;
    while (done < buffer.length) {
      const { bytesRead } = await handle.read(buffer, done, buffer.length - done, from + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buffer.subarray(0, done);
  } finally {
    await handle.close();
  }
}
