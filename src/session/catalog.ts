// The sessions of a workspace: where they live (pi's folder naming), listing, create, rename, delete, fork.
import { homedir } from 'node:os';
import { open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEntry } from './entries';
import { SessionFileError } from './errors';
import { generateEntryId } from './ids';
import type { LeafMemory } from './leaf-memory';
import { SessionStore, type OpenOptions } from './store';
import { writeFileAtomic } from './files';
import { contentText } from '../core/messages';
import { parseJsonObject } from './json-object';

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

/** The leading fields as pi (and Arbor) write them: lets the catalog skip JSON.parse for most lines. */
const ENTRY_PREFIX = /^\{"type":"([^"\\]+)","id":"([^"\\]+)","parentId":(?:null|"([^"\\]*)")/;

/**
 * Summarizes one session without building the full index: most lines are only matched by a prefix
 * regex; user messages (until the first), session_info and lines in other layouts are parsed.
 */
export async function summarizeSession(file: string): Promise<SessionSummary> {
  const info = await stat(file);
  const text = await readText(file);
  let start = 0;
  let header: Record<string, unknown> | undefined;
  let name: string | undefined;
  let firstUserMessage: string | undefined;
  let entryCount = 0;
  const ids = new Set<string>();
  const parents = new Set<string>();
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    const isLast = end >= text.length - 1;
    start = end + 1;
    if (!line) continue;
    if (!header) {
      header = parseJsonObject(line);
      if (!header || header.type !== 'session' || typeof header.id !== 'string') {
        throw new SessionFileError(file, 'first line is not a session header');
      }
      continue;
    }
    const match = isLast ? null : ENTRY_PREFIX.exec(line);
    let type: string;
    let id: string;
    let parentId: string | undefined;
    let parsed: Record<string, unknown> | undefined;
    if (match) {
      [, type, id, parentId] = match as unknown as [string, string, string, string | undefined];
    } else {
      parsed = parseJsonObject(line);
      if (!parsed || typeof parsed.type !== 'string' || typeof parsed.id !== 'string') continue;
      type = parsed.type;
      id = parsed.id;
      parentId = typeof parsed.parentId === 'string' ? parsed.parentId : undefined;
    }
    if (ids.has(id)) continue;
    ids.add(id);
    entryCount++;
    if (parentId !== undefined && parentId !== id) parents.add(parentId);
    if (type === 'session_info') {
      const value = (parsed ?? parseJsonObject(line))?.name;
      name = typeof value === 'string' && value.trim() ? value.trim() : undefined;
    } else if (firstUserMessage === undefined && type === 'message' && line.includes('"role":"user"')) {
      const message = (parsed ?? parseJsonObject(line))?.message as { role?: unknown; content?: unknown } | undefined;
      if (message?.role === 'user' && (typeof message.content === 'string' || Array.isArray(message.content))) {
        firstUserMessage = contentText(message.content as string);
      }
    }
  }
  if (!header) throw new SessionFileError(file, 'empty file: no session header');
  let tips = 0;
  for (const id of ids) if (!parents.has(id)) tips++;
  return {
    file,
    id: header.id as string,
    cwd: typeof header.cwd === 'string' ? header.cwd : undefined,
    name,
    firstUserMessage,
    modified: info.mtime,
    created: typeof header.timestamp === 'string' ? header.timestamp : undefined,
    entryCount,
    branchCount: tips,
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
export async function listSessions(dir: string): Promise<{ sessions: SessionSummary[]; skipped: { file: string; reason: string }[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: [], skipped: [] };
    throw error;
  }
  const sessions: SessionSummary[] = [];
  const skipped: { file: string; reason: string }[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const file = join(dir, name);
    try {
      sessions.push(await summarizeSession(file));
    } catch (error) {
      skipped.push({ file, reason: (error as Error).message });
    }
  }
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
 * pi's `createBranchedSession`: a new file whose header names the old file as `parentSession`, holding
 * the root→leaf path without label entries (written byte-for-byte), followed by re-created labels for
 * labelled entries on the path (original timestamps kept) chained after the last path entry.
 */
export async function forkBranch(
  store: SessionStore,
  leafId: string,
  options: { dir?: string; cwd?: string; leafMemory?: LeafMemory } = {},
): Promise<SessionStore> {
  const path = store.getBranch(leafId);
  if (path.length === 0) throw new Error(`entry ${leafId} not found in ${store.file}`);
  const kept = path.filter((entry) => entry.type !== 'label');
  const dir = options.dir ?? join(store.file, '..');
  const target = await SessionStore.create({
    dir,
    cwd: options.cwd ?? (typeof store.header.cwd === 'string' ? store.header.cwd : process.cwd()),
    parentSession: store.file,
  });
  const ids = new Set(kept.map((e) => e.id));
  const labels: SessionEntry[] = [];
  let parentId = kept.length > 0 ? kept[kept.length - 1]!.id : null;
  for (const node of kept) {
    const label = store.getLabel(node.id);
    if (!label) continue;
    const id = generateEntryId((candidate) => ids.has(candidate));
    ids.add(id);
    const timestamp = store.getLabelTimestamp(node.id) ?? new Date().toISOString();
    labels.push({ type: 'label', id, parentId, timestamp, targetId: node.id, label });
    parentId = id;
  }
  const lines = [JSON.stringify(target.header), ...(await store.rawLines(kept)), ...labels.map((l) => JSON.stringify(l))];
  await writeFileAtomic(target.file, [lines.join('\n') + '\n']);
  return SessionStore.open(target.file, { leafMemory: options.leafMemory });
}
