// The seven built-in tools, with pi-compatible names and arguments, and their provider definitions.
import type { ToolDefinition } from '../../llm/types';
import { createBashTool } from './bash';
import { createEditTool } from './edit';
import { createFindTool } from './find';
import { createGrepTool } from './grep';
import { createLsTool } from './ls';
import { createReadTool } from './read';
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
  /** folders outside the workspace `read` may open too (the user's skills: src/agent/instructions/skill-tool.ts) */
  readExtraFolders?: () => readonly string[];
}

export function createTools(options: CreateToolsOptions = {}): AgentTool[] {
  const all: Record<BuiltinToolName, () => AgentTool> = {
    read: () => createReadTool(options.readExtraFolders ? { extraFolders: options.readExtraFolders } : {}),
    write: createWriteTool,
    edit: createEditTool,
    bash: createBashTool,
    ls: createLsTool,
    find: () => createFindTool({ ripgrep: options.ripgrep }),
    grep: () => createGrepTool({ ripgrep: options.ripgrep }),
  };
  const names = options.only ?? BUILTIN_TOOL_NAMES;
  return names.map((name) => all[name]());
}

export function toolDefinitions(tools: readonly AgentTool[]): ToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

export { runTool, ToolError, DEFAULT_TOOL_LIMITS } from './types';
export type { AgentTool, ToolContext, ToolOutput, ToolLimits, WorkspaceRoots, WorkspaceFolder } from './types';
export { resolveInWorkspace, workspaceFromPaths } from './paths';
export { bundledRipgrep } from './ripgrep';
