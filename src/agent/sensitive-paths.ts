// The tools' side of "some files always ask": finds where a file-writing tool's targets really land (its
// effect's `targets`, whoever wrote the tool) and asks the shared
// file-write policy (tools/write-policy.ts: protected names as written and as the real path, the folders git
// decides, Arbor's own folders, hard links) about it. The result feeds ApprovalPolicy.decide, which
// stays free of fs. Never throws: a probe that cannot look asks, to be safe. See docs/reliability.md.
import { normalize } from 'node:path';
import type { ApprovalWarning } from './approval';
import { commandMentions, protectedPathMatch, type ProtectedMatch } from './tools/protected-paths';
import { resolveCallTargets, type CallTarget } from './tools/paths';
import { effectCommand, type AgentTool, type WorkspaceRoots } from './tools/types';
import { WritePolicy } from './tools/write-policy';

export interface SensitivePathOptions {
  /** more absolute folders whose files always ask (e.g. Arbor's sessions directory inside the workspace) */
  protectedDirectories?: readonly string[];
}

/**
 * Warnings that make a call ask whatever the settings say; [] for an ordinary call. `targets`: the call's
 * targets as resolved for the whole call (tool-calls.ts); resolved here when not given.
 */
export async function approvalWarnings(
  tool: Pick<AgentTool, 'effect'>,
  args: Record<string, unknown>,
  workspace: WorkspaceRoots,
  options: SensitivePathOptions = {},
  targets?: readonly CallTarget[],
): Promise<ApprovalWarning[]> {
  const { effect } = tool;
  if (effect.kind === 'runs') return commandWarnings(effectCommand(effect, args));
  if (effect.kind !== 'writesFiles') return [];
  const warnings: ApprovalWarning[] = [];
  for (const target of targets ?? (await resolveCallTargets(workspace, effect, args))) warnings.push(...(await targetWarnings(target, workspace, options)));
  return warnings;
}

/**
 * Auto-edit's condition: a file-writing call that names at least one target, each of which resolved inside
 * a workspace folder (confined like the tools: no link out). A target it could not place is outside.
 */
export function targetsInsideWorkspace(targets: readonly CallTarget[]): boolean {
  return targets.length > 0 && targets.every((target) => target.resolved !== undefined);
}


async function targetWarnings(target: CallTarget, workspace: WorkspaceRoots, options: SensitivePathOptions): Promise<ApprovalWarning[]> {
  try {
    return await fileWarnings(target, workspace, options);
  } catch (error) {
    return [{ kind: 'protectedPath', message: `Arbor could not check whether ${target.path} is a protected file (${(error as Error)?.message ?? error}), so it asks.` }];
  }
}

function commandWarnings(command: unknown): ApprovalWarning[] {
  if (typeof command !== 'string') return [];
  const names = commandMentions(command);
  if (names.length === 0) return [];
  return [{ kind: 'commandMention', message: `This command mentions ${names.join(', ')}: files that change how git, the editor or the agent behave.` }];
}

async function fileWarnings({ path, resolved }: CallTarget, workspace: WorkspaceRoots, options: SensitivePathOptions): Promise<ApprovalWarning[]> {
  if (!resolved) {
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
