// The file-system half of "some files always ask": finds where a write/edit really lands (the path as
// written and its real path, both relative to their workspace root), applies the protected-path rules of
// protected-paths.ts to both, and counts hard links. The result feeds ApprovalPolicy.decide, which stays
// free of fs. Never throws: a probe that cannot look asks, to be safe. See docs/reliability.md.
import { lstat } from 'node:fs/promises';
import { normalize, relative } from 'node:path';
import type { ApprovalWarning } from './approval';
import { commandMentions, protectedPathMatch, type ProtectedMatch } from './protected-paths';
import { isInside, realpathDeep, resolveInWorkspace, workspaceRootInfos } from './tools/paths';
import type { WorkspaceRoots } from './tools/types';

export interface SensitivePathOptions {
  /** more absolute folders whose files always ask (e.g. Arbor's sessions directory inside the workspace) */
  protectedDirectories?: readonly string[];
}

const FILE_TOOLS = new Set(['write', 'edit']);

/** Warnings that make a call ask whatever the settings say; [] for an ordinary call. */
export async function approvalWarnings(
  toolName: string,
  args: Record<string, unknown>,
  workspace: WorkspaceRoots,
  options: SensitivePathOptions = {},
): Promise<ApprovalWarning[]> {
  if (toolName === 'bash') return commandWarnings(args.command);
  if (!FILE_TOOLS.has(toolName) || typeof args.path !== 'string') return [];
  try {
    return await fileWarnings(args.path, workspace, options);
  } catch (error) {
    return [{ kind: 'protectedPath', message: `Arbor could not check whether ${args.path} is a protected file (${(error as Error)?.message ?? error}), so it asks.` }];
  }
}

function commandWarnings(command: unknown): ApprovalWarning[] {
  if (typeof command !== 'string') return [];
  const names = commandMentions(command);
  if (names.length === 0) return [];
  return [{ kind: 'commandMention', message: `This command mentions ${names.join(', ')}: files that change how git, the editor or the agent behave.` }];
}

async function fileWarnings(path: string, workspace: WorkspaceRoots, options: SensitivePathOptions): Promise<ApprovalWarning[]> {
  let resolved;
  try {
    resolved = await resolveInWorkspace(workspace, path);
  } catch {
    // The tool refuses this path itself; still judge the spelling, so a refusal never reads as "ordinary".
    const match = protectedPathMatch(normalize(path));
    return match ? [protectedWarning(path, match)] : [];
  }
  const warnings: ApprovalWarning[] = [];
  const match = protectedPathMatch(resolved.display) ?? (await realMatch(workspace, resolved.absolute, options));
  if (match) warnings.push(protectedWarning(resolved.display, match));
  const links = await hardLinkCount(resolved.absolute);
  if (links > 1) warnings.push(hardLinkWarning(resolved.display, links));
  return warnings;
}

/** The rule the real path (symlinks resolved) falls under, relative to the root that contains it. */
async function realMatch(workspace: WorkspaceRoots, absolute: string, options: SensitivePathOptions): Promise<ProtectedMatch | undefined> {
  for (const directory of options.protectedDirectories ?? []) {
    if (directory && isInside(await realpathDeep(directory), absolute)) return { kind: 'agent', rule: "Arbor's sessions directory" };
  }
  for (const root of await workspaceRootInfos(workspace)) {
    if (isInside(root.real, absolute)) return protectedPathMatch(relative(root.real, absolute));
  }
  return undefined;
}

/** Links of an existing regular file; 1 for new files, directories and anything else. */
async function hardLinkCount(absolute: string): Promise<number> {
  try {
    const stats = await lstat(absolute);
    return stats.isFile() ? stats.nlink : 1;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 1;
    throw error;
  }
}

const KIND_TEXT: Record<ProtectedMatch['kind'], string> = {
  editor: 'it changes how VS Code behaves (settings, tasks, launch configurations can run commands)',
  git: 'it changes how git behaves (config and hooks run commands)',
  agent: "it changes Arbor's own instructions or sessions",
};

function protectedWarning(path: string, match: ProtectedMatch): ApprovalWarning {
  return { kind: 'protectedPath', message: `Protected file (${match.rule}): ${path}: ${KIND_TEXT[match.kind]}. Arbor always asks before changing it.` };
}

function hardLinkWarning(path: string, links: number): ApprovalWarning {
  return { kind: 'hardLink', message: `${path} has ${links} hard links: writing it changes the other paths too, which may lie outside the workspace.` };
}
