// What the agent is told to follow beyond Arbor's own prompt: the user's global instruction files, each
// workspace folder's AGENTS.md, and the Agent Skills found in the workspace and the user's skill folders.
// One instance per extension host, shared by every chat: the system prompt, the `skill` tool, `read`
// (user skills' files) and the chat's "Instructions" line read its latest scan. A scan runs at every
// prompt, so a skill added or edited while a session runs is in the next request
// (docs/architecture.md, "Skills and instruction files").
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isInside } from '../tools/paths';
import type { WorkspaceRoots } from '../tools/types';
import { formatInstructions, homeDisplay, INSTRUCTION_FILE_NAMES, readGlobalInstructions, readRootInstructions, type InstructionFile } from './agents-files';
import { scanSkills, SkillFileCache, type Skill, type SkillProblem, type SkillRoot } from './skill-scan';

/** Workspace folders holding skills, in the order a name is looked up (first wins). */
export const WORKSPACE_SKILL_DIRS = ['.agents/skills', '.claude/skills', '.github/skills'] as const;
/** The user's skill folders under the home folder (then `arbor.skills.paths`). */
export const USER_SKILL_DIRS = ['.agents/skills', '.claude/skills'] as const;
/** pi's global instruction folder: its AGENTS.md (else CLAUDE.md) applies to every project. */
export const GLOBAL_INSTRUCTIONS_DIR = '.pi/agent';

export interface ProjectInstructionsOptions {
  workspace: WorkspaceRoots;
  /** default: os.homedir() */
  home?: string;
  /** more user skill folders (`arbor.skills.paths`, machine-scoped) */
  userSkillPaths?: () => readonly string[];
  /** more global instruction files (`arbor.instructions.globalFiles`, machine-scoped) */
  globalFiles?: () => readonly string[];
  /** false: no skills are scanned or listed (a host without the `skill` tool); default true */
  skills?: boolean;
  /** false: only the workspace's files (no global instruction file, no user skill folder); default true */
  userFiles?: boolean;
  /** told each problem once (the Arbor output channel) */
  log?: (message: string) => void;
}

export interface InstructionsSnapshot {
  /** global files first, then each workspace folder's root file */
  files: InstructionFile[];
  skills: Skill[];
  problems: SkillProblem[];
}

const EMPTY: InstructionsSnapshot = { files: [], skills: [], problems: [] };

export class ProjectInstructions {
  private readonly cache = new SkillFileCache();
  private readonly logged = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private last: InstructionsSnapshot = EMPTY;
  private lastKey = '';
  private readonly home: string;
  readonly show: (absolute: string) => string;

  constructor(private readonly options: ProjectInstructionsOptions) {
    this.home = options.home ?? homedir();
    this.show = homeDisplay(this.home);
  }

  get skillsEnabled(): boolean {
    return this.options.skills !== false;
  }

  get workspace(): WorkspaceRoots {
    return this.options.workspace;
  }

  /** The latest scan (empty before the first). */
  current(): InstructionsSnapshot {
    return this.last;
  }

  /** Scans again; tells listeners when what the chat shows changed, and logs new problems once. */
  async refresh(): Promise<InstructionsSnapshot> {
    const [globals, roots, scan] = await Promise.all([
      this.options.userFiles === false ? Promise.resolve([]) : readGlobalInstructions(this.globalPaths(), this.show),
      readRootInstructions(this.options.workspace),
      this.skillsEnabled ? this.skillRoots().then((roots) => scanSkills(roots, this.cache)) : Promise.resolve({ skills: [], problems: [] }),
    ]);
    this.last = { files: [...globals, ...roots], skills: scan.skills, problems: scan.problems };
    this.logProblems(scan.problems);
    const key = JSON.stringify([this.last.files.map((f) => f.display), scan.skills.map((s) => [s.name, s.display, s.description]), scan.problems]);
    if (key !== this.lastKey) {
      this.lastKey = key;
      for (const listener of [...this.listeners]) listener();
    }
    return this.last;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The system prompt's instruction text (global and root files), undefined when there are none. */
  promptText(snapshot = this.last): string | undefined {
    return formatInstructions(snapshot.files);
  }

  skill(name: string): Skill | undefined {
    return this.last.skills.find((s) => s.name === name);
  }

  /** Real folders of the user's skills: `read` may open files inside exactly these (read-only). */
  userSkillFolders(): string[] {
    return this.last.skills.filter((s) => s.scope === 'user').map((s) => s.folder);
  }

  /** pi's folder (its AGENTS.md, else CLAUDE.md), then each listed file as it is. */
  private globalPaths(): string[][] {
    const dir = join(this.home, GLOBAL_INSTRUCTIONS_DIR);
    return [INSTRUCTION_FILE_NAMES.map((name) => join(dir, name)), ...(this.options.globalFiles?.() ?? []).map((p) => [this.expand(p)])];
  }

  /**
   * Workspace roots, then the user's. A user folder inside a workspace folder (the home folder opened as
   * the workspace) is the workspace's: scanned once, under the workspace's rules.
   */
  private async skillRoots(): Promise<SkillRoot[]> {
    const roots = this.allSkillRoots();
    const realFolders = await Promise.all(this.options.workspace.folders.map((f) => realpath(f.path).catch(() => f.path)));
    const inWorkspace = async (dir: string) => {
      const real = await realpath(dir).catch(() => dir);
      return realFolders.some((folder) => isInside(folder, real)) || this.options.workspace.folders.some((f) => isInside(f.path, dir));
    };
    const keep = await Promise.all(roots.map(async (root) => root.scope === 'workspace' || !(await inWorkspace(root.dir))));
    return roots.filter((_, i) => keep[i]);
  }

  private allSkillRoots(): SkillRoot[] {
    const roots: SkillRoot[] = [];
    const multi = this.options.workspace.folders.length > 1;
    for (const folder of this.options.workspace.folders) {
      for (const dir of WORKSPACE_SKILL_DIRS) roots.push({ dir: join(folder.path, dir), scope: 'workspace', confine: this.options.workspace, shown: multi ? `${folder.name}/${dir}` : dir });
    }
    if (this.options.userFiles === false) return roots;
    for (const dir of USER_SKILL_DIRS) roots.push({ dir: join(this.home, dir), scope: 'user', shown: `~/${dir}` });
    for (const dir of this.options.userSkillPaths?.() ?? []) roots.push({ dir: this.expand(dir), scope: 'user', shown: this.show(this.expand(dir)) });
    return roots;
  }

  private expand(path: string): string {
    if (path === '~') return this.home;
    return path.startsWith('~/') || path.startsWith('~\\') ? join(this.home, path.slice(2)) : path;
  }

  private logProblems(problems: readonly SkillProblem[]): void {
    for (const problem of problems) {
      const line = `Skills: ${problem.path}: ${problem.message}`;
      if (this.logged.has(line)) continue;
      this.logged.add(line);
      this.options.log?.(line);
    }
  }
}
