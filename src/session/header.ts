// Reading a session file's first line: the errors a file that is not a session gets, and the versions
// Arbor may write to. A header from a newer version opens read-only (docs/reliability.md): its entries may
// carry meanings this version would break on a rewrite, and an append could corrupt the newer format.
import { SessionFileError } from './errors';
import { CURRENT_SESSION_VERSION } from './entries';
import { sessionVersion } from './migrate';
import { defersBody } from './entry-types';
import { scanLines, type ParsedLine, type ScanOptions, type ScanResult } from './scan';
import { headerProblem } from './schema';
import { isTitleSlot, titleSlotOf, type TitleSlot } from './title-slot';

/** Why a session is shown but never written. */
export interface ReadOnlyReason {
  reason: 'newer-version';
  version: number;
}

export function readOnlyReasonFor(header: Record<string, unknown>): ReadOnlyReason | undefined {
  const version = sessionVersion(header);
  return version > CURRENT_SESSION_VERSION ? { reason: 'newer-version', version } : undefined;
}

/** What the user is told when such a session is opened. */
export function describeReadOnly(readOnly: ReadOnlyReason): string {
  return `This session was written by a newer version (v${readOnly.version}); Arbor opened it read-only.`;
}

export async function scanOrExplain(file: string, options: ScanOptions = {}): Promise<ScanResult> {
  try {
    return await scanLines(file, 0, 1, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SessionFileError(file, 'file not found');
    if (code === 'EISDIR') throw new SessionFileError(file, 'is a directory, not a session file');
    if (code === 'EACCES') throw new SessionFileError(file, 'permission denied');
    throw new SessionFileError(file, (error as Error).message);
  }
}

/** The header line, and omp's title slot when the file starts with one (title-slot.ts). */
export interface HeaderLines {
  header: ParsedLine;
  titleSlot: TitleSlot | undefined;
}

export function headerFrom(file: string, scan: ScanResult): HeaderLines {
  const slotLine = scan.lines[0] && isTitleSlot(scan.lines[0].value) ? scan.lines[0] : undefined;
  const first = slotLine ? scan.lines[1] : scan.lines[0];
  if (!first) throw new SessionFileError(file, 'empty file: no session header');
  const earlierProblem = scan.problems.find((p) => p.line < first.lineNo);
  if (earlierProblem) throw new SessionFileError(file, `line ${earlierProblem.line} should be the session header but is not valid JSON`);
  const problem = headerProblem(first.value);
  if (problem) throw new SessionFileError(file, `line ${first.lineNo}: ${problem}`);
  return { header: first, titleSlot: slotLine ? titleSlotOf(slotLine) : undefined };
}

/**
 * The whole file read for the store's index: lines of kinds that defer their body are indexed from their
 * heads (entry-index.ts). A v1/v2 file is read again whole, since migrating it needs every line's value.
 */
export async function scanForIndex(file: string): Promise<{ scan: ScanResult } & HeaderLines> {
  const scan = await scanOrExplain(file, { deferBody: defersBody });
  const lines = headerFrom(file, scan);
  if (sessionVersion(lines.header.value as Record<string, unknown>) >= CURRENT_SESSION_VERSION) return { scan, ...lines };
  const whole = await scanOrExplain(file);
  return { scan: whole, ...headerFrom(file, whole) };
}
