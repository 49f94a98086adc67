// @-mentions of files in a prompt: "@src/app.ts" names a workspace file whose content goes to the model with
// the message, as a <file path="…"> block after the text (what the model saw is what the session keeps).
// Confined to the workspace: a mention resolves only inside a workspace root, also after following
// symlinks; directories, missing, binary and unreadable files are skipped; sizes and counts are capped.
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export const MENTION_LIMITS = { files: 10, bytes: 100_000 } as const;

/** A mention: "@" at the start or after whitespace, then a path without spaces. */
const MENTION = /(?:^|\s)@([^\s@`"'<>]+)/g;

export interface MentionedFile {
  /** as written in the mention (workspace-relative) */
  path: string;
  content: string;
  truncated: boolean;
}

/** The distinct paths mentioned in `text`, in order, at most MENTION_LIMITS.files. */
export function mentionedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const path = match[1]!.replace(/[.,;:!?)]+$/, '');
    if (path) paths.add(path);
    if (paths.size >= MENTION_LIMITS.files) break;
  }
  return [...paths];
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The real path of `path` under one of `roots` (the same root before and after symlinks), or undefined. */
async function confined(roots: readonly string[], path: string): Promise<string | undefined> {
  for (const root of roots) {
    const candidate = resolve(root, path);
    if (!inside(root, candidate)) continue;
    try {
      const [realRoot, real] = await Promise.all([realpath(root), realpath(candidate)]);
      if (inside(realRoot, real) && (await stat(real)).isFile()) return real;
    } catch {
      // missing or unreadable here: try the next root
    }
  }
  return undefined;
}

async function readCapped(file: string): Promise<{ content: string; truncated: boolean } | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(MENTION_LIMITS.bytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, Math.min(bytesRead, MENTION_LIMITS.bytes));
    if (bytes.includes(0)) return undefined;
    return { content: bytes.toString('utf8'), truncated: bytesRead > MENTION_LIMITS.bytes };
  } finally {
    await handle.close();
  }
}

/** The mentioned files that resolve inside `roots`, read (capped). */
export async function readMentions(text: string, roots: readonly string[]): Promise<MentionedFile[]> {
  const files: MentionedFile[] = [];
  for (const path of mentionedPaths(text)) {
    const real = await confined(roots, path);
    const read = real ? await readCapped(real).catch(() => undefined) : undefined;
    if (read) files.push({ path, ...read });
  }
  return files;
}

/** The prompt the model gets: the text, then one block per mentioned file. */
export function withMentions(text: string, files: readonly MentionedFile[]): string {
  const blocks = files.map((f) => `<file path="${f.path.replace(/"/g, '&quot;')}">\n${f.content}${f.truncated ? '\n… (truncated)' : ''}\n</file>`);
  return blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`;
}
