// The sessions of a workspace: where they live (pi's folder naming), listing, create, rename, delete, fork.
import { homedir } from 'node:os';
import { open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionFileError } from './errors';
import type { LeafMemory } from './leaf-memory';
import { SessionStore } from './store';
import type { OpenOptions } from './store-types';
import { sessionCwd, writeBranchSession } from './branch-session';
import { SummaryScan } from './summary-scan';
import type { SessionSummaryCache } from './summary-cache';

/** pi's per-workspace folder name: `--` + cwd without the leading separator, `/ \ :` → `-`, + `--`. */
export function sessionDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** Arbor's default: `<root>/<pi folder name for cwd>` (the extension passes its global storage as root). */
export function defaultSessionDir(root: string, cwd: string): string {
  return join(root, sessionDirName(cwd));
}

/** pi's own session root, so its sessions can be opened too. */
export function piSessionsRoot(): string {
  return join(process.env.PI_CODING_AGENT_DIR ?? join(homedir(), '.pi', 'agent'), 'sessions');
}

export interface SessionSummary {
  file: string;
  id: string;
  cwd: string | undefined;
  name: string | undefined;
  firstUserMessage: string | undefined;
  /** file modification time */
  modified: Date;
  created: string | undefined;
  entryCount: number;
  /** number of tips (entries without children): 1 for a linear conversation */
  branchCount: number;
  parentSession: string | undefined;
}

/**
 * Summarizes one session without building the full index: most lines are only matched by a prefix
 * regex; user messages (until the first), session_info and lines in other layouts are parsed.
 */
export async function summarizeSession(file: string): Promise<SessionSummary> {
  const info = await stat(file);
  const scan = new SummaryScan(file);
  scan.feed(await readText(file), true);
  return summaryOf(file, scan, info.mtime);
}

export function summaryOf(file: string, scan: SummaryScan, modified: Date): SessionSummary {
  const header = scan.header;
  if (!header) throw new SessionFileError(file, 'empty file: no session header');
  return {
    file,
    id: header.id as string,
    cwd: typeof header.cwd === 'string' ? header.cwd : undefined,
    name: scan.name,
    firstUserMessage: scan.firstUserMessage,
    modified,
    created: typeof header.timestamp === 'string' ? header.timestamp : undefined,
    entryCount: scan.entryCount,
    branchCount: scan.tips,
    parentSession: typeof header.parentSession === 'string' ? header.parentSession : undefined,
  };
}

async function readText(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Sessions in `dir`, most recently modified first. Unreadable files are skipped (reported in `skipped`). */
export interface ListOptions {
  /** summaries kept between listings: unchanged files are not read again */
  cache?: SessionSummaryCache;
  /** the session being written to: its cached summary is brought up to date by reading only the bytes added */
  growing?: string;
}

export async function listSessions(dir: string, options: ListOptions = {}): Promise<{ sessions: SessionSummary[]; skipped: { file: string; reason: string }[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: [], skipped: [] };
    throw error;
  }
  const sessions: SessionSummary[] = [];
  const skipped: { file: string; reason: string }[] = [];
  const listed = new Set<string>();
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const file = join(dir, name);
    listed.add(file);
    try {
      sessions.push(options.cache ? await options.cache.summarize(file, file === options.growing) : await summarizeSession(file));
    } catch (error) {
      skipped.push({ file, reason: (error as Error).message });
    }
  }
  options.cache?.retainOnly(listed);
  sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());
  return { sessions, skipped };
}

export function createSession(options: { dir: string; cwd: string; parentSession?: string; leafMemory?: LeafMemory }): Promise<SessionStore> {
  return SessionStore.create(options);
}

/** Opens any session file (Arbor's, pi's `~/.pi/agent/sessions`, oh-my-pi's). */
export function openSession(file: string, options?: OpenOptions): Promise<SessionStore> {
  return SessionStore.open(file, options);
}

/** Renames by appending a `session_info` entry (pi's way; an empty name clears it). */
export async function renameSession(file: string, name: string, options?: OpenOptions): Promise<void> {
  const store = await SessionStore.open(file, options);
  await store.appendSessionInfo(name);
}

/** Deletes the file. The UI asks for confirmation before calling this. */
export async function deleteSession(file: string): Promise<void> {
  await unlink(file);
}

/**
 * Fork: a new session next to the old one (`parentSession` = the old file) holding the root→leaf branch,
 * written as `arbor-session export --format jsonl` writes it (branch-session.ts).
 */
export async function forkBranch(
  store: SessionStore,
  leafId: string,
  options: { dir?: string; cwd?: string; leafMemory?: LeafMemory } = {},
): Promise<SessionStore> {
  if (!store.getEntry(leafId)) throw new Error(`entry ${leafId} not found in ${store.file}`);
  const target = await SessionStore.create({ dir: options.dir ?? join(store.file, '..'), cwd: options.cwd ?? sessionCwd(store), parentSession: store.file });
  await writeBranchSession(store, leafId, target.header, target.file);
  return SessionStore.open(target.file, { leafMemory: options.leafMemory });
}
