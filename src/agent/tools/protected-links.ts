// The targets of protected symbolic links (docs/reliability.md, threat model, "one rule for every
// writer"): a repository may commit `AGENTS.md -> docs/agent-guide.md` or `.vscode/tasks.json ->
// ../config/tasks.json`; what the editor, git and agents then act on is the target's content, so writing
// the target is writing the protected file. Bounded scan, once per policy instance: the entries of each
// workspace folder that protected-paths.ts names, and one level of entries inside the protected folders
// (and `.github/workflows/`); every symbolic link among them adds its resolved real target. Never throws.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { leadsToProtected, protectedPathMatch, type ProtectedMatch } from './protected-paths';
import { realpathDeep } from './paths';

export interface ProtectedTarget {
  /** real path of a protected link's target (a file, or a folder whose files it covers) */
  real: string;
  match: ProtectedMatch;
  /** the link, relative to its workspace folder, for the card */
  link: string;
}

/** Every protected symbolic link's real target under the workspace folders `roots` (real paths). */
export async function protectedLinkTargets(roots: readonly string[]): Promise<ProtectedTarget[]> {
  const found: ProtectedTarget[] = [];
  for (const root of roots) await scan(root, '', found, 0);
  return found;
}

/** Looks at `rel`'s entries; descends into protected folders (one level) and folders that lead to one. */
async function scan(root: string, rel: string, found: ProtectedTarget[], depth: number): Promise<void> {
  for (const entry of await entriesOf(join(root, rel))) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    const match = protectedPathMatch(path);
    if (entry.isSymbolicLink() && match) await addTarget(join(root, path), path, match, found);
    else if (entry.isDirectory() && depth < 2 && (leadsToProtected(path) || (match && !protectedPathMatch(rel || '.')))) await scan(root, path, found, depth + 1);
  }
}

async function addTarget(absolute: string, link: string, match: ProtectedMatch, found: ProtectedTarget[]): Promise<void> {
  const real = await realpathDeep(absolute).catch(() => undefined);
  if (real) found.push({ real, match, link });
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}
