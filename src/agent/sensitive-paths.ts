// The tools' side of "some files always ask": finds where a file-writing tool's targets really land (its
// effect's `targets`, whoever wrote the tool) and asks the shared
// file-write policy (tools/write-policy.ts: protected names as written and as the real path, the folders git
// decides, Arbor's own folders, hard links) about it. The result feeds ApprovalPolicy.decide, which
// stays free of fs. Never throws: a probe that cannot look asks, to be safe. See docs/reliability.md.
import { normalize } from 'node:path';
import type { ApprovalWarning } from './approval';
import { commandMentions, protectedPathMatch, type ProtectedMatch } from './tools/protected-paths';
import { resolveInWorkspace } from './tools/paths';
import { effectCommand, effectTargets, type AgentTool, type WorkspaceRoots } from './tools/types';
import { WritePolicy } from './tools/write-policy';

export interface SensitivePathOptions {
  /** more absolute folders whose files always ask (e.g. Arbor's sessions directory inside the workspace) */
  protectedDirectories?: readonly string[];
}

/** Warnings that make a call ask whatever the settings say; [] for an ordinary call. */
export async function approvalWarnings(
  tool: Pick<AgentTool, 'effect'>,
  args: Record<string, unknown>,
  workspace: WorkspaceRoots,
  options: SensitivePathOptions = {},
): Promise<ApprovalWarning[]> {
  const { effect } = tool;
  if (effect.kind === 'runs') return commandWarnings(effectCommand(effect, args));
  if (effect.kind !== 'writesFiles') return [];
  const warnings: ApprovalWarning[] = [];
  for (const path of effectTargets(effect, args)) warnings.push(...(await targetWarnings(path, workspace, options)));
  return warnings;
}

/**
 * Auto-edit's condition: a file-writing call that names at least one target, each of which resolves inside
 * a workspace folder (confined like the tools: no link out). Never throws: a target it cannot place is outside.
 */
export async function targetsInsideWorkspace(tool: Pick<AgentTool, 'effect'>, args: Record<string, unknown>, workspace: WorkspaceRoots): Promise<boolean> {
  if (tool.effect.kind !== 'writesFiles') return false;
  const targets = effectTargets(tool.effect, args);
  if (targets.length === 0) return false;
  for (const path of targets) {
    if (!(await resolveInWorkspace(workspace, path).then(() => true, () => false))) return false;
  }
  return true;
}


async function targetWarnings(path: string, workspace: WorkspaceRoots, options: SensitivePathOptions): Promise<ApprovalWarning[]> {
  try {
    return await fileWarnings(path, workspace, options);
  } catch (error) {
    return [{ kind: 'protectedPath', message: `Arbor could not check whether ${path} is a protected file (${(error as Error)?.message ?? error}), so it asks.` }];
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
  const policy = new WritePolicy(workspace, { protectedDirectories: options.protectedDirectories ?? [] });
  const verdict = await policy.judge(resolved.absolute, resolved.display);
  if (verdict.protected) warnings.push(protectedWarning(resolved.display, verdict.protected));
  if (verdict.hardLinks > 1) warnings.push(hardLinkWarning(resolved.display, verdict.hardLinks));
  return warnings;
}

const KIND_TEXT: Record<ProtectedMatch['kind'], string> = {
  editor: 'it changes how VS Code behaves (settings, tasks, launch configurations can run commands)',
  git: 'it changes how git behaves (config and hooks run commands)',
  agent: "it changes Arbor's or another agent's instructions, hooks or sessions",
  ci: 'CI runs it with the repository\'s secrets on the next push',
  shell: 'your shell runs it when you enter the folder',
};

function protectedWarning(path: string, match: ProtectedMatch): ApprovalWarning {
  return { kind: 'protectedPath', message: `Protected file (${match.rule}): ${path}: ${KIND_TEXT[match.kind]}. Arbor always asks before changing it.` };
}

function hardLinkWarning(path: string, links: number): ApprovalWarning {
  return { kind: 'hardLink', message: `${path} has ${links} hard links: writing it changes the other paths too, which may lie outside the workspace.` };
}
