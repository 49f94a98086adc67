// `skill`: loads one Agent Skill's SKILL.md body by name and lists the other files in its folder, with
// the paths `read` opens them by (workspace-relative for a workspace skill, absolute for a user skill,
// which `read` may open inside that skill's folder only). Read-only, and its output is kept by
// compaction's pruning (`keepOutput`): a skill's instructions stay in force for the whole task.
import { lstat, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { createTools, type CreateToolsOptions } from '../tools';
import { ToolRegistry } from '../tools/tool-registry';
import { displayPathOf } from '../tools/paths';
import { ToolError, defineTool, textOutput, type AgentTool } from '../tools/types';
import type { ProjectInstructions } from './project-instructions';
import { plainRootFolder, SkillFileCache, type Skill } from './skill-scan';

export const skillArgs = z.object({
  name: z.string().min(1).max(200).describe('Name of the skill, as listed under "Skills" in the system prompt'),
});
export type SkillArgs = z.infer<typeof skillArgs>;

/** At most this many other files are listed, this many folders deep. */
export const SKILL_FILES_MAX = 100;
const SKILL_FILES_DEPTH = 4;

/** Files under `folder` (no dot entries, no node_modules, no symbolic links), breadth first, capped. */
export async function skillFiles(folder: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  let queue = [folder];
  for (let depth = 0; depth < SKILL_FILES_DEPTH && queue.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.isSymbolicLink()) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) next.push(path);
        else if (entry.isFile() && !(dir === folder && entry.name === 'SKILL.md')) {
          if (files.length >= SKILL_FILES_MAX) return { files, more: true };
          files.push(path);
        }
      }
    }
    queue = next;
  }
  return { files, more: false };
}

async function shownPath(skill: Skill, absolute: string): Promise<string> {
  return skill.scope === 'workspace' ? displayPathOf(skill.confine, absolute) : absolute;
}

async function filesSection(skill: Skill): Promise<{ text: string; paths: string[] }> {
  const { files, more } = await skillFiles(skill.folder);
  if (files.length === 0) return { text: '', paths: [] };
  const paths = await Promise.all(files.map((f) => shownPath(skill, f)));
  const list = paths.map((p, i) => `- ${p}${skill.scope === 'user' ? '' : ` (${relative(skill.folder, files[i]!).split(sep).join('/')})`}`);
  if (more) list.push(`- … more files (only the first ${SKILL_FILES_MAX} are listed)`);
  return { text: renderPrompt('system/skill-files', { list: list.join('\n') }), paths };
}

function unknownSkill(instructions: ProjectInstructions, name: string): ToolError {
  const names = instructions.current().skills.filter((s) => !s.hidden).map((s) => s.name);
  return new ToolError(`There is no skill named "${name.slice(0, 80)}". Available skills: ${names.length > 0 ? names.join(', ') : '(none)'}.`);
}

export function createSkillTool(instructions: ProjectInstructions): AgentTool<SkillArgs> {
  const cache = new SkillFileCache();
  return defineTool<SkillArgs>({
    name: 'skill',
    description: renderPrompt('system/tools/skill'),
    argsSchema: skillArgs,
    effect: { kind: 'readOnly' },
    keepOutput: true,
    async execute(args) {
      const skill = instructions.skill(args.name.trim());
      if (!skill) throw unknownSkill(instructions, args.name);
      if (!(await lstat(skill.folder).then(() => true, () => false))) throw new ToolError(`The skill "${skill.name}" was removed (${skill.display}).`);
      // cached by path, size and modification time while neither the file, its folder nor the folders above are links
      const loaded = await cache.load(skill.confine, join(skill.folder, 'SKILL.md'), skill.folder.split(/[\\/]/).pop() ?? skill.name, await plainRootFolder(dirname(skill.folder)));
      if ('problem' in loaded) throw new ToolError(`The skill "${skill.name}" cannot be loaded from ${skill.display}: ${loaded.problem}.`);
      const files = await filesSection(skill);
      const folder = skill.scope === 'workspace' ? await displayPathOf(skill.confine, skill.folder) : skill.folder;
      const text = renderPrompt('system/skill-loaded', { name: skill.name, path: skill.display, folder, body: loaded.skill.body, files: files.text });
      return textOutput(text.trimEnd(), { skill: skill.name, path: skill.display, scope: skill.scope, files: files.paths });
    },
  });
}

/** The built-in tools, `read` able to open the user's skills' files (each confined to its skill's folder). */
export function createToolsWithSkills(instructions: ProjectInstructions, options: CreateToolsOptions = {}): AgentTool[] {
  const tools = createTools({ ...options, readExtraFolders: () => instructions.userSkillFolders() });
  return instructions.skillsEnabled ? [...tools, createSkillTool(instructions)] : tools;
}

/** The host's live tool list: those built-ins, and the `skill` tool as the source `skills`. */
export function toolRegistryWithSkills(instructions: ProjectInstructions, options: CreateToolsOptions = {}): ToolRegistry {
  const registry = new ToolRegistry(createTools({ ...options, readExtraFolders: () => instructions.userSkillFolders() }));
  if (instructions.skillsEnabled) registry.set(SKILLS_SOURCE, [createSkillTool(instructions)]);
  return registry;
}

/** The registry source the `skill` tool is registered under. */
export const SKILLS_SOURCE = 'skills';
