// The seven built-in tools (and `skill` when the host has skills), with pi-compatible names and arguments, and their provider definitions.
import type { ToolDefinition } from '../../llm/types';
import { createBashTool } from './bash';
import { createEditTool } from './edit';
import { createFindTool } from './find';
import { createGrepTool } from './grep';
import { createLsTool } from './ls';
import type { ProjectInstructions } from '../instructions/project-instructions';
import { createReadTool } from './read';
import { createSkillTool } from './skill';
import type { RipgrepOption } from './ripgrep';
import type { AgentTool } from './types';
import { createWriteTool } from './write';

export type BuiltinToolName = 'read' | 'write' | 'edit' | 'bash' | 'ls' | 'find' | 'grep';

export const BUILTIN_TOOL_NAMES: readonly BuiltinToolName[] = ['read', 'write', 'edit', 'bash', 'ls', 'find', 'grep'];

export interface CreateToolsOptions {
  /** Path to ripgrep (e.g. VS Code's bundled rg), `false` to always use the pure-Node search. */
  ripgrep?: RipgrepOption;
  /** Subset of tools to create (default: all seven). */
  only?: readonly BuiltinToolName[];
  /**
   * The host's instruction files and skills: adds the `skill` tool (after the seven) and lets `read`
   * open the files of the user's skills. TODO(seam): register `skill` through the ToolRegistry wiring.
   */
  instructions?: ProjectInstructions;
}

export function createTools(options: CreateToolsOptions = {}): AgentTool[] {
  const all: Record<BuiltinToolName, () => AgentTool> = {
    read: () => createReadTool(options.instructions ? { extraFolders: () => options.instructions!.userSkillFolders() } : {}),
    write: createWriteTool,
    edit: createEditTool,
    bash: createBashTool,
    ls: createLsTool,
    find: () => createFindTool({ ripgrep: options.ripgrep }),
    grep: () => createGrepTool({ ripgrep: options.ripgrep }),
  };
  const names = options.only ?? BUILTIN_TOOL_NAMES;
  const tools = names.map((name) => all[name]());
  if (options.instructions?.skillsEnabled) tools.push(createSkillTool(options.instructions));
  return tools;
}

export function toolDefinitions(tools: readonly AgentTool[]): ToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

export { runTool, ToolError, DEFAULT_TOOL_LIMITS } from './types';
export type { AgentTool, ToolContext, ToolOutput, ToolLimits, WorkspaceRoots, WorkspaceFolder } from './types';
export { resolveInWorkspace, workspaceFromPaths } from './paths';
export { bundledRipgrep } from './ripgrep';
