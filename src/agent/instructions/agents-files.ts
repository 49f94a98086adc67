// Instruction files (AGENTS.md, else CLAUDE.md in the same folder): the user's global ones, the one at
// each workspace folder's root (both in the system prompt), and the nested ones between a file the agent
// works on and its workspace folder's root (added to that tool's result once: see nested-instructions.ts).
// Workspace files are read confined like any tool path, so a symbolic link out of the workspace is not
// followed (docs/reliability.md, threat model).
import { readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { openConfined, readAll } from '../tools/confined-open';
import { isInside, resolveInWorkspace, type ResolvedPath } from '../tools/paths';
import { keepHeadBytes } from '../tools/text';
import type { WorkspaceRoots } from '../tools/types';

export const AGENTS_MD_MAX_BYTES = 32 * 1024;
/** Names read in each folder, first found wins (pi's order without its override file). */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

export type InstructionScope = 'global' | 'root' | 'nested';

export interface InstructionFile {
  scope: InstructionScope;
  /** real absolute path */
  absolute: string;
  /** as shown: workspace-relative, or `~/…` */
  display: string;
  /** the folder it applies to, as shown ('.' for a root) */
  appliesTo: string;
  content: string;
  /** the content was cut at the size cap */
  cut: boolean;
}

function capText(text: string, maxBytes: number): { content: string; cut: boolean } {
  const clean = text.replace(/^\uFEFF/, '').trim();
  if (Buffer.byteLength(clean) <= maxBytes) return { content: clean, cut: false };
  return { content: keepHeadBytes(clean, maxBytes), cut: true };
}

/** The first instruction file in `folder` inside the workspace, read confined; undefined when none. */
export async function readWorkspaceInstructions(roots: WorkspaceRoots, folder: string, maxBytes = AGENTS_MD_MAX_BYTES): Promise<Omit<InstructionFile, 'scope' | 'appliesTo'> | undefined> {
  for (const name of INSTRUCTION_FILE_NAMES) {
    try {
      const target = await resolveInWorkspace(roots, join(folder, name));
      const { handle, stats } = await openConfined(target, 'read');
      try {
        const { content, cut } = capText((await readAll(handle, Math.min(stats.size, maxBytes * 4))).toString('utf8'), maxBytes);
        if (content === '') continue;
        return { absolute: target.absolute, display: target.display, content, cut };
      } finally {
        await handle.close();
      }
    } catch {
      // missing, a folder, or outside the workspace through a link: not an instruction file
    }
  }
  return undefined;
}

/** AGENTS.md (else CLAUDE.md) at each workspace folder's root. */
export async function readRootInstructions(roots: WorkspaceRoots, maxBytes = AGENTS_MD_MAX_BYTES): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  for (const folder of roots.folders) {
    const file = await readWorkspaceInstructions(roots, folder.path, maxBytes);
    if (file) files.push({ ...file, scope: 'root', appliesTo: roots.folders.length > 1 ? folder.name : '.' });
  }
  return files;
}

/** The user's global files (their own, outside any repository), capped; of each group the first that exists. */
export async function readGlobalInstructions(groups: readonly (readonly string[])[], show: (absolute: string) => string): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  for (const group of groups) {
    for (const path of group) {
      const file = await readGlobalFile(path, show);
      if (!file) continue;
      files.push(file);
      break;
    }
  }
  return files;
}

async function readGlobalFile(path: string, show: (absolute: string) => string): Promise<InstructionFile | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    const { content, cut } = capText(await readFile(path, 'utf8'), AGENTS_MD_MAX_BYTES);
    return content === '' ? undefined : { scope: 'global', absolute: path, display: show(path), appliesTo: '~', content, cut };
  } catch {
    return undefined; // not there: nothing to add
  }
}

/**
 * The folders from `rel`'s own folder (or `rel` itself, when it is a folder) up to, not including, the
 * workspace folder's root, as paths relative to that root: where nested instruction files for it may be.
 * Deepest first.
 */
export function nestedFolders(rel: string, isFolder: boolean): string[] {
  const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (!isFolder) parts.pop();
  const folders: string[] = [];
  for (let n = parts.length; n > 0; n--) folders.push(parts.slice(0, n).join('/'));
  return folders;
}

/** Nested instruction files that apply to a resolved workspace path, outermost first. */
export async function readNestedInstructions(roots: WorkspaceRoots, target: ResolvedPath): Promise<InstructionFile[]> {
  let isFolder = false;
  try {
    isFolder = (await stat(target.absolute)).isDirectory();
  } catch {
    // a file about to be written: its folder counts
  }
  const files: InstructionFile[] = [];
  for (const rel of nestedFolders(relative(target.root, target.absolute), isFolder).reverse()) {
    const file = await readWorkspaceInstructions(roots, join(target.folder.path, rel));
    if (!file) continue;
    const appliesTo = file.display.split('/').slice(0, -1).join('/') || '.';
    files.push({ ...file, scope: 'nested', appliesTo: `${appliesTo}/` });
  }
  return files;
}

/** `~/…` for paths under the home folder, else the path itself. */
export function homeDisplay(home: string): (absolute: string) => string {
  return (absolute) => (isInside(home, absolute) && absolute !== home ? `~/${relative(home, absolute).split(sep).join('/')}` : absolute);
}

/**
 * The system prompt's text for `files`, at most `maxBytes` of content in all: a lone root file as it is,
 * several each under "From <path>:". A file cut at the cap says so.
 */
export function formatInstructions(files: readonly InstructionFile[], maxBytes = AGENTS_MD_MAX_BYTES): string | undefined {
  const parts: string[] = [];
  let budget = maxBytes;
  const alone = files.length === 1 && files[0]!.scope === 'root' && files[0]!.appliesTo === '.';
  for (const file of files) {
    if (budget <= 0) break;
    let text = file.content;
    const name = file.display.split('/').pop() ?? 'AGENTS.md';
    if (file.cut || Buffer.byteLength(text) > budget) {
      const kept = Math.min(budget, Buffer.byteLength(text));
      text = `${keepHeadBytes(text, kept)}\n\n[${name} cut: only the first ${Math.round(maxBytes / 1024)} KB are included.]`;
      budget = 0;
    } else budget -= Buffer.byteLength(text);
    parts.push(alone ? text : `From ${file.display}:\n\n${text}`);
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
