// The protected folders git itself decides, beyond the names in protected-paths.ts (docs/reliability.md,
// threat model, "where git really looks"): the folder a `.git` *file* points at (`gitdir:`: separate git
// folders, worktrees, submodules) and its common folder; any folder git would take for a git folder
// (`HEAD` with `objects/` and `refs/`, or a `commondir`: an embedded bare repository); and the hooks
// folder git really runs, the effective `core.hooksPath` (git's own answer, united with the repository's
// config read as text, so a missing or refusing git still protects it); and the config files the
// repository's config includes (git-config-files.ts). Looked up at every folder above a
// path, as git discovers repositories; cached per instance, never throws. Files written together (a
// restore, or the one file a tool writes) that would complete a git folder's shape count too: a session
// must not assemble an embedded repository (HEAD, objects/, refs/, a config with hooks) file by file.
import { execFile } from 'node:child_process';
import { lstat, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { includedConfigFiles } from './git-config-files';
import { realpathDeep } from './paths';

export interface GitProtectedFolder {
  /** real absolute path of the folder */
  dir: string;
  /** the rule, as the approval card and the restore dialog show it */
  rule: string;
}

const GIT_TIMEOUT_MS = 5000;

export class GitFolders {
  private readonly atDir = new Map<string, Promise<GitProtectedFolder[]>>();
  private readonly parts = new Map<string, Promise<FolderParts>>();

  /** Every git-decided protected folder found at `absolute`'s folder and each folder above it. */
  async above(absolute: string): Promise<GitProtectedFolder[]> {
    const found: GitProtectedFolder[] = [];
    for (let dir = dirname(absolute); ; dir = dirname(dir)) {
      found.push(...(await this.at(dir)));
      if (dirname(dir) === dir) return found;
    }
  }

  /** The folder above `absolute` that would look like a git folder once the `planned` files exist, if any. */
  async madeBy(planned: PlannedView, absolute: string): Promise<string | undefined> {
    for (let dir = dirname(absolute); ; dir = dirname(dir)) {
      if (shapedWith(planned, dir, await this.partsAt(dir))) return dir;
      if (dirname(dir) === dir) return undefined;
    }
  }

  private partsAt(dir: string): Promise<FolderParts> {
    let entry = this.parts.get(dir);
    if (!entry) this.parts.set(dir, (entry = partsOnDisk(dir)));
    return entry;
  }

  private at(dir: string): Promise<GitProtectedFolder[]> {
    let entry = this.atDir.get(dir);
    if (!entry) this.atDir.set(dir, (entry = foldersAt(dir).catch(() => [])));
    return entry;
  }
}

async function foldersAt(dir: string): Promise<GitProtectedFolder[]> {
  const found: GitProtectedFolder[] = [];
  if (await looksLikeGitFolder(dir)) found.push({ dir: await realpathDeep(dir), rule: 'a git folder (HEAD, objects, refs)' });
  const gitDir = await gitDirOf(dir);
  if (!gitDir) return found;
  if (gitDir.viaFile) {
    found.push({ dir: gitDir.dir, rule: `the git folder a .git file points at (gitdir: ${gitDir.dir})` });
    const common = await commonDirOf(gitDir.dir);
    if (common !== gitDir.dir) found.push({ dir: common, rule: `the common git folder of ${gitDir.dir}` });
  }
  for (const hooks of await hooksFolders(dir, gitDir.dir)) found.push(hooks);
  for (const file of await includedConfigFiles(gitDir.dir, await commonDirOf(gitDir.dir))) found.push({ dir: file, rule: `a config file the repository's git config includes (${file})` });
  return found;
}

/** Real paths of the files an operation writes, with every folder above them (for "something lands below X"). */
export class PlannedFiles {
  private readonly files: Set<string>;
  private readonly folders = new Set<string>();

  constructor(paths: readonly string[]) {
    this.files = new Set(paths);
    for (const path of paths) addFolders(this.folders, path);
  }

  /** These files and `extra` (the one being judged), without copying the set. */
  with(extra: string): PlannedView {
    if (this.files.has(extra)) return this;
    const folders = addFolders(new Set(), extra);
    return { hasFile: (path) => path === extra || this.hasFile(path), hasBelow: (folder) => folders.has(folder) || this.hasBelow(folder) };
  }

  hasFile(path: string): boolean {
    return this.files.has(path);
  }

  hasBelow(folder: string): boolean {
    return this.folders.has(folder);
  }
}

export interface PlannedView {
  hasFile(path: string): boolean;
  hasBelow(folder: string): boolean;
}

function addFolders(folders: Set<string>, path: string): Set<string> {
  for (let dir = dirname(path); !folders.has(dir); dir = dirname(dir)) {
    folders.add(dir);
    if (dirname(dir) === dir) break;
  }
  return folders;
}

/** What the disk holds of a git folder's parts in one folder. */
interface FolderParts {
  head: boolean;
  common: boolean;
  objects: boolean;
  refs: boolean;
}

async function partsOnDisk(dir: string): Promise<FolderParts> {
  const [head, common, objects, refs] = await Promise.all([isHead(join(dir, 'HEAD')), isFile(join(dir, 'commondir')), isDirectory(join(dir, 'objects')), isDirectory(join(dir, 'refs'))]);
  return { head, common, objects, refs };
}

/** True when `dir` looks like a git folder once the planned files exist (they or the disk provide each part). */
function shapedWith(planned: PlannedView, dir: string, disk: FolderParts): boolean {
  const head = disk.head || planned.hasFile(join(dir, 'HEAD'));
  const common = disk.common || planned.hasFile(join(dir, 'commondir'));
  const objects = disk.objects || planned.hasBelow(join(dir, 'objects'));
  const refs = disk.refs || planned.hasBelow(join(dir, 'refs'));
  return head && (common || (objects && refs));
}

// git follows symbolic links when it checks a folder's shape (objects/ may be a link to a folder), so
// these checks follow them too.
async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/** git accepts a HEAD that is a file or a symbolic link (even one to a ref not yet written). */
async function isHead(path: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isSymbolicLink() ? true : await isFile(path);
}

/** What git's own check accepts as a git folder: a HEAD, and objects/ with refs/ (or a commondir). */
async function looksLikeGitFolder(dir: string): Promise<boolean> {
  if (!(await isHead(join(dir, 'HEAD')))) return false;
  if (await isFile(join(dir, 'commondir'))) return true;
  return (await isDirectory(join(dir, 'objects'))) && (await isDirectory(join(dir, 'refs')));
}

/** The git folder of a work tree at `dir`: `.git` itself, or where a `.git` file's `gitdir:` points. */
async function gitDirOf(dir: string): Promise<{ dir: string; viaFile: boolean } | undefined> {
  const dotGit = join(dir, '.git');
  const info = await lstat(dotGit).catch(() => undefined);
  if (info?.isDirectory()) return { dir: await realpathDeep(dotGit), viaFile: false };
  if (!info?.isFile() || info.size > 64 * 1024) return undefined;
  const line = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'));
  return line ? { dir: await realpathDeep(resolve(dir, line[1]!)), viaFile: true } : undefined;
}

async function commonDirOf(gitDir: string): Promise<string> {
  const text = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return text?.trim() ? realpathDeep(resolve(gitDir, text.trim())) : gitDir;
}

/** The hooks folders git would run for the work tree at `workTree` (none when hooks stay in the git folder). */
async function hooksFolders(workTree: string, gitDir: string): Promise<GitProtectedFolder[]> {
  const values = new Set([...(await hooksPathFromGit(gitDir)), ...(await hooksPathFromText(await commonDirOf(gitDir)))]);
  const out: GitProtectedFolder[] = [];
  for (const value of values) {
    const expanded = value === '~' || value.startsWith('~/') ? join(homedir(), value.slice(1)) : value;
    const dir = await realpathDeep(isAbsolute(expanded) ? expanded : resolve(workTree, expanded));
    out.push({ dir, rule: `core.hooksPath (${value})` });
    // husky 9 points git at `.husky/_`, whose scripts run the user's `.husky/<hook>`.
    if (basename(dir) === '_') out.push({ dir: dirname(dir), rule: `core.hooksPath (${value}) runs the hooks beside it` });
  }
  return out;
}

/** git's effective core.hooksPath (repository, global and system config, includes); [] when git cannot say. */
function hooksPathFromGit(gitDir: string): Promise<string[]> {
  return new Promise((done) => {
    execFile('git', ['--git-dir', gitDir, 'config', '--get', 'core.hooksPath'], { timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout) => {
      const value = String(stdout ?? '').trim();
      done(error || !value ? [] : [value]);
    });
  });
}

/** core.hooksPath as the repository's own config file says it, read as text (git not needed). */
async function hooksPathFromText(commonDir: string): Promise<string[]> {
  const text = await readFile(join(commonDir, 'config'), 'utf8').catch(() => '');
  const out: string[] = [];
  let inCore = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s"]+)/.exec(line);
    if (section) inCore = section[1]!.toLowerCase() === 'core';
    const value = inCore ? /^hookspath\s*=\s*(.*)$/i.exec(line.replace(/^\[[^\]]*\]\s*/, '')) : null;
    if (value?.[1]) out.push(value[1].replace(/^"(.*)"$/, '$1').trim());
  }
  return out;
}
