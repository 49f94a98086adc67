// Finds the skills in the skill folders (`<root>/<skill>/SKILL.md`) and reads each through the same
// confined open as the `read` tool: a workspace skill must lie inside the workspace (a symbolic link out
// of it is refused, like any tool path), a user skill inside its own folder. Parsed files are cached by
// path, size and modification time, so a scan at every prompt costs a few `readdir`/`stat` calls
// (bench/skills-scan.mjs). Every refusal is a problem with the file and the reason.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openConfined, readAll } from '../tools/confined-open';
import { resolveInWorkspace } from '../tools/paths';
import type { WorkspaceRoots } from '../tools/types';
import { parseSkillFile, SKILL_FILE_MAX_BYTES, type ParsedSkill } from './skill-file';

export type SkillScope = 'workspace' | 'user';

/** A folder holding one sub-folder per skill. */
export interface SkillRoot {
  dir: string;
  scope: SkillScope;
  /** where reads are confined: the workspace for workspace roots; undefined = each skill's own folder */
  confine?: WorkspaceRoots;
  /** how `dir` is shown in problems: workspace-relative (`.agents/skills`) or `~/…` */
  shown: string;
}

export interface Skill extends Omit<ParsedSkill, 'body' | 'warnings'> {
  scope: SkillScope;
  /** real path of the skill's folder */
  folder: string;
  /** how SKILL.md is shown: workspace-relative, or `~/…` / absolute for a user skill */
  display: string;
  /** the roots its files are read within (the workspace, or its own folder) */
  confine: WorkspaceRoots;
}

export interface SkillProblem {
  /** the file or folder, as shown */
  path: string;
  message: string;
  /** `error`: not loaded; `warning`: loaded with a note */
  severity: 'error' | 'warning';
}

export interface LoadedSkillFile {
  skill: ParsedSkill;
  absolute: string;
  display: string;
}

type YamlParse = (text: string) => unknown;
let yamlParse: Promise<YamlParse> | undefined;
/** The YAML parser, loaded on first use (it is not needed at activation). */
export function loadYaml(): Promise<YamlParse> {
  yamlParse ??= import('yaml').then((m) => (text: string) => m.parse(text, { maxAliasCount: 50 }));
  return yamlParse;
}

interface CacheEntry {
  /** lstat of SKILL.md and of its folder by their lexical paths: unchanged, and no link, = the same file */
  key: string;
  loaded: LoadedSkillFile & { folder: string };
}

type Loaded = (LoadedSkillFile & { folder: string }) | { problem: string; display: string };

/** Identity of a path that is not a symbolic link (undefined for a link or a missing path). */
async function plainIdentity(path: string): Promise<string | undefined> {
  try {
    const info = await lstat(path);
    return info.isSymbolicLink() ? undefined : `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** A skill root `dir` whose cached files may be trusted: neither it nor its parent is a link. */
export async function plainRootFolder(dir: string): Promise<boolean> {
  return (await plainIdentity(dir)) !== undefined && (await plainIdentity(dirname(dir))) !== undefined;
}

/**
 * Reads SKILL.md files confined (like `read`) and caches what it parsed. A later scan of an unchanged
 * file costs two `lstat` calls: neither the file nor its folder may be a link then (a link, or any change,
 * takes the full confined read again), and the scan checks its root folders are no links either.
 */
export class SkillFileCache {
  private readonly entries = new Map<string, CacheEntry>();

  /** Reads the SKILL.md at `file` (lexical) confined to `confine`. `plainRoot`: the root folders are no links. */
  async load(confine: WorkspaceRoots, file: string, folderName: string, plainRoot = false): Promise<Loaded> {
    const key = plainRoot ? `${await plainIdentity(file)}|${await plainIdentity(dirname(file))}` : undefined;
    const cached = this.entries.get(file);
    if (key && !key.includes('undefined') && cached?.key === key) return cached.loaded;
    const loaded = await this.read(confine, file, folderName);
    if ('problem' in loaded || !key || key.includes('undefined')) this.entries.delete(file);
    else this.entries.set(file, { key, loaded });
    return loaded;
  }

  private async read(confine: WorkspaceRoots, file: string, folderName: string): Promise<Loaded> {
    let target;
    try {
      target = await resolveInWorkspace(confine, file);
    } catch (error) {
      return { problem: (error as Error).message, display: file };
    }
    try {
      const { handle, stats } = await openConfined(target, 'read');
      try {
        if (stats.size > SKILL_FILE_MAX_BYTES) {
          return { problem: `it is ${Math.round(stats.size / 1024)} KB, larger than the ${SKILL_FILE_MAX_BYTES / 1024} KB a skill may be`, display: target.display };
        }
        const result = parseSkillFile((await readAll(handle, stats.size)).toString('utf8'), folderName, await loadYaml());
        if (!result.ok) return { problem: result.problem, display: target.display };
        return { skill: result.skill, absolute: target.absolute, display: target.display, folder: await realpath(dirname(file)) };
      } finally {
        await handle.close();
      }
    } catch (error) {
      return { problem: (error as Error).message, display: target.display };
    }
  }
}

async function skillFolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** A user skill's folder as its own root (a symlinked folder is the user's choice and is followed). */
function ownRoot(folder: string): WorkspaceRoots {
  return { folders: [{ name: 'skill', path: folder }] };
}

/** The folder's SKILL.md, loaded; undefined when the folder has none (it is not a skill). */
async function loadFolder(root: SkillRoot, name: string, cache: SkillFileCache, plainRoot: boolean): Promise<Loaded | undefined> {
  const lexical = join(root.dir, name);
  if (!(await lstat(join(lexical, 'SKILL.md')).then(() => true, () => false))) return undefined;
  return cache.load(root.confine ?? ownRoot(lexical), join(lexical, 'SKILL.md'), name, plainRoot);
}

export interface ScanResult {
  skills: Skill[];
  problems: SkillProblem[];
}

/** At most this many skills are listed in the system prompt; the rest are one problem. */
export const SKILLS_MAX_LISTED = 100;
/** At most this many characters of names and descriptions are listed in the system prompt. */
export const SKILLS_LISTING_MAX_CHARS = 16 * 1024;
/** SKILL.md files opened at once during a scan (a repository of thousands opens no thousands of files). */
export const SKILL_SCAN_BATCH = 16;

/** What the listing still holds room for; a repository cannot flood the system prompt with skills. */
class ListingBudget {
  private count = 0;
  private chars = 0;
  /** skill folders left out: not looked at, or not listed because the listing was full */
  leftOut = 0;

  get full(): boolean {
    return this.count >= SKILLS_MAX_LISTED || this.chars >= SKILLS_LISTING_MAX_CHARS;
  }

  /** Takes room for `skill`; false when it does not fit (it is then left out). */
  take(skill: { name: string; description: string }): boolean {
    const size = skill.name.length + skill.description.length + 6;
    if (this.full || this.chars + size > SKILLS_LISTING_MAX_CHARS) return false;
    this.count++;
    this.chars += size;
    return true;
  }
}

function leftOutProblem(leftOut: number): SkillProblem {
  return {
    path: 'skills',
    message: `${leftOut} more skill folder${leftOut === 1 ? ' was' : 's were'} not loaded: the system prompt lists at most ${SKILLS_MAX_LISTED} skills and ${SKILLS_LISTING_MAX_CHARS / 1024} KB of names and descriptions.`,
    severity: 'warning',
  };
}

/** The folders' SKILL.md files, loaded a batch at a time, in name order. */
async function loadBatch(root: SkillRoot, names: readonly string[], cache: SkillFileCache, plainRoot: boolean): Promise<(Loaded | undefined)[]> {
  return Promise.all(names.map((name) => loadFolder(root, name, cache, plainRoot)));
}

/** Scans `roots` in order; the first skill of a name wins, later ones are reported as shadowed. */
export async function scanSkills(roots: readonly SkillRoot[], cache: SkillFileCache): Promise<ScanResult> {
  const state: ScanState = { skills: [], problems: [], byName: new Map(), budget: new ListingBudget() };
  for (const root of roots) {
    const names = await skillFolders(root.dir);
    if (names.length === 0) continue;
    const plainRoot = await plainRootFolder(root.dir);
    for (let start = 0; start < names.length; start += SKILL_SCAN_BATCH) {
      if (state.budget.full) {
        state.budget.leftOut += names.length - start;
        break;
      }
      const batch = names.slice(start, start + SKILL_SCAN_BATCH);
      for (const [i, loaded] of (await loadBatch(root, batch, cache, plainRoot)).entries()) if (loaded) addLoaded(state, root, batch[i]!, loaded);
    }
  }
  if (state.budget.leftOut > 0) state.problems.push(leftOutProblem(state.budget.leftOut));
  return { skills: state.skills, problems: state.problems };
}

interface ScanState {
  skills: Skill[];
  problems: SkillProblem[];
  byName: Map<string, Skill>;
  budget: ListingBudget;
}

/** One folder's result: a problem, a shadowed skill, a skill listed, or one left out (listing full). */
function addLoaded(state: ScanState, root: SkillRoot, name: string, loaded: Loaded): void {
  const lexical = join(root.dir, name);
  const confine = root.confine ?? ownRoot(lexical);
  if ('problem' in loaded) {
    state.problems.push({ path: `${root.shown}/${name}/SKILL.md`, message: `Skill not loaded: ${loaded.problem}.`, severity: 'error' });
    return;
  }
  const display = root.scope === 'workspace' ? loaded.display : `${root.shown}/${name}/SKILL.md`;
  for (const warning of loaded.skill.warnings) state.problems.push({ path: display, message: `Skill loaded, but ${warning}.`, severity: 'warning' });
  const earlier = state.byName.get(loaded.skill.name);
  if (earlier) {
    state.problems.push({ path: display, message: `Skill "${loaded.skill.name}" is also defined in ${earlier.display}, which wins (${earlier.scope === 'workspace' && root.scope === 'user' ? 'the workspace wins over the user folders' : 'the first found wins'}).`, severity: 'warning' });
    return;
  }
  if (!state.budget.take(loaded.skill)) {
    state.budget.leftOut++;
    return;
  }
  const { body: _body, warnings: _warnings, ...meta } = loaded.skill;
  const skill: Skill = { ...meta, scope: root.scope, folder: loaded.folder, display, confine };
  state.byName.set(skill.name, skill);
  state.skills.push(skill);
}
