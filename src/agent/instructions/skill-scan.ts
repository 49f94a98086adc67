// Finds the skills in the skill folders (`<root>/<skill>/SKILL.md`) and reads each through the same
// confined open as the `read` tool: a workspace skill must lie inside the workspace (a symbolic link out
// of it is refused, like any tool path), a user skill inside its own folder. Parsed files are cached by
// path, size and modification time, so a scan at every prompt costs a few `readdir`/`stat` calls
// (bench/skills-scan.mjs). Every refusal is a problem with the file and the reason.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
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
  key: string;
  result: { ok: true; skill: ParsedSkill } | { ok: false; problem: string };
}

export class SkillFileCache {
  private readonly entries = new Map<string, CacheEntry>();

  /** Reads the SKILL.md of `folder` confined to `confine`; cached by real path, size and mtime. */
  async load(confine: WorkspaceRoots, file: string, folderName: string): Promise<LoadedSkillFile | { problem: string; display: string }> {
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
        const key = `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
        const cached = this.entries.get(target.absolute);
        const result = cached?.key === key ? cached.result : parseSkillFile((await readAll(handle, stats.size)).toString('utf8'), folderName, await loadYaml());
        this.entries.set(target.absolute, { key, result });
        return result.ok ? { skill: result.skill, absolute: target.absolute, display: target.display } : { problem: result.problem, display: target.display };
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

export interface ScanResult {
  skills: Skill[];
  problems: SkillProblem[];
}

/** Scans `roots` in order; the first skill of a name wins, later ones are reported as shadowed. */
export async function scanSkills(roots: readonly SkillRoot[], cache: SkillFileCache, show: (absolute: string) => string): Promise<ScanResult> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const byName = new Map<string, Skill>();
  for (const root of roots) {
    for (const name of await skillFolders(root.dir)) {
      const lexical = join(root.dir, name);
      if (!(await lstat(join(lexical, 'SKILL.md')).then(() => true, () => false))) continue; // not a skill folder
      const confine = root.confine ?? ownRoot(lexical);
      const loaded = await cache.load(confine, join(lexical, 'SKILL.md'), name);
      if ('problem' in loaded) {
        problems.push({ path: show(join(lexical, 'SKILL.md')), message: `Skill not loaded: ${loaded.problem}.`, severity: 'error' });
        continue;
      }
      const display = root.scope === 'workspace' ? loaded.display : show(join(lexical, 'SKILL.md'));
      for (const warning of loaded.skill.warnings) problems.push({ path: display, message: `Skill loaded, but ${warning}.`, severity: 'warning' });
      const earlier = byName.get(loaded.skill.name);
      if (earlier) {
        problems.push({ path: display, message: `Skill "${loaded.skill.name}" is also defined in ${earlier.display}, which wins (${earlier.scope === 'workspace' && root.scope === 'user' ? 'the workspace wins over the user folders' : 'the first found wins'}).`, severity: 'warning' });
        continue;
      }
      const { body: _body, warnings: _warnings, ...meta } = loaded.skill;
      const skill: Skill = { ...meta, scope: root.scope, folder: await realpath(lexical), display, confine };
      byName.set(skill.name, skill);
      skills.push(skill);
    }
  }
  return { skills, problems };
}
