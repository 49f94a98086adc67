// Builds the system prompt from prompts/system/*.md: role, tools, working guidelines, and facts about
// the workspace (folders, OS, date, restricted mode, Plan mode, the project's AGENTS.md).
import { readFile, stat } from 'node:fs/promises';
import { release, type as osType } from 'node:os';
import { renderPrompt } from '../core/prompts';
import { AGENTS_MD_MAX_BYTES, formatInstructions, readRootInstructions } from './instructions/agents-files';
import type { WorkspaceFolder, WorkspaceRoots } from './tools/types';

export interface SystemPromptInput {
  workspaceFolders: readonly WorkspaceFolder[];
  /** e.g. `describeOs()` */
  os: string;
  /** the current date; a string is used as is */
  date: Date | string;
  /** contents of the project's AGENTS.md (see readAgentsMd) */
  agentsMd?: string;
  /** untrusted workspace: tools that change things are off */
  restricted: boolean;
  /** Plan mode: only tools that read are offered; the agent investigates and writes a plan */
  plan?: boolean;
  /** the tools offered to the model (name and description) */
  tools: readonly { name: string; description: string }[];
  /** Agent Skills the model may load with the `skill` tool (name and description) */
  skills?: readonly { name: string; description: string }[];
}

export { AGENTS_MD_MAX_BYTES };

export function describeOs(): string {
  const names: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };
  return `${names[osType()] ?? osType()} ${release()} (${process.platform}, ${process.arch})`;
}

/** YYYY-MM-DD in local time. */
export function formatDate(date: Date | string): string {
  if (typeof date === 'string') return date;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** First sentence of a tool description: the system prompt lists tools briefly; details are in the schema. */
export function summarizeTool(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end >= 0 ? flat.slice(0, end + 1) : flat;
}

function toolsSection(tools: SystemPromptInput['tools']): string {
  if (tools.length === 0) return 'No tools are available in this session; answer from the conversation alone.';
  return tools.map((tool) => `- \`${tool.name}\`: ${summarizeTool(tool.description)}`).join('\n');
}

function skillsSection(skills: SystemPromptInput['skills']): string {
  if (!skills || skills.length === 0) return '';
  const list = skills.map((skill) => `- \`${skill.name}\`: ${skill.description.replace(/\s+/g, ' ')}`).join('\n');
  return renderPrompt('system/skills', { list }).trimEnd();
}

function workspaceSection(folders: readonly WorkspaceFolder[]): string {
  if (folders.length === 0) return '- No folder is open, so there are no files to work with.';
  if (folders.length === 1) return renderPrompt('system/workspace-single', { folder: folders[0].path }).trimEnd();
  return renderPrompt('system/workspace-multi', {
    folders: folders.map((f) => `  - \`${f.name}\`: ${f.path}`).join('\n'),
    example: folders[1].name,
  }).trimEnd();
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const agentsMd = input.agentsMd?.trim();
  return `${renderPrompt('system/main', {
    tools: toolsSection(input.tools),
    workspace: workspaceSection(input.workspaceFolders),
    os: input.os,
    date: formatDate(input.date),
    restricted: input.restricted ? renderPrompt('system/restricted') : '',
    plan: input.plan ? renderPrompt('system/plan-mode', { template: renderPrompt('plan/template').trimEnd() }) : '',
    agentsMd: agentsMd ? renderPrompt('system/agents-md', { content: agentsMd }) : '',
    skills: skillsSection(input.skills),
  }).trimEnd()}\n`;
}

/**
 * Reads AGENTS.md (else CLAUDE.md) from each workspace folder (confined like any tool path, so a symlink
 * out of the workspace is not followed), capped at `maxBytes` in total. Undefined when no folder has one.
 */
export async function readAgentsMd(roots: WorkspaceRoots, maxBytes = AGENTS_MD_MAX_BYTES): Promise<string | undefined> {
  return formatInstructions(await readRootInstructions(roots, maxBytes), maxBytes);
}
