// Which tool calls may run, must be confirmed by the user, or are refused. Pure logic: the extension
// reads the settings and workspace trust and asks the user; this module only decides, from the tool's
// effect (src/agent/tools/types.ts), never from its name: a tool that changes nothing runs, anything
// else asks by default and is off in restricted mode, whoever wrote it.
import type { ApprovalMode } from '../core/approval-modes';
import { renderPrompt } from '../core/prompts';
import { changesThings, type AgentTool, type ToolOutput } from './tools/types';

export type ApprovalSetting = 'ask' | 'allow' | 'deny';

export type ApprovalDecision = { kind: 'allow' } | { kind: 'ask' } | { kind: 'deny'; reason: string };

/**
 * Why a call must ask whatever the settings say: it writes a protected file (.vscode/, .git/, …), a file
 * with other hard links, or a command names such a file. Found by sensitive-paths.ts; shown on the card.
 */
export interface ApprovalWarning {
  kind: 'protectedPath' | 'hardLink' | 'commandMention';
  message: string;
}

/** What the policy reads of a tool: its name (settings and session memory are keyed by it) and its effect. */
export type ApprovalTool = Pick<AgentTool, 'name' | 'effect'>;

export const RESTRICTED_MODE_REASON =
  'Arbor is in restricted mode: this workspace is not trusted, so tools that change files or run commands are off.';

export const PLAN_MODE_REASON =
  'Arbor is in Plan mode: only tools that read are allowed. Investigate, then write the plan; the user runs it in Ask or Auto-edit mode.';

const SETTINGS = new Set<ApprovalSetting>(['ask', 'allow', 'deny']);

export interface ParsedApprovalSettings {
  settings: Record<string, ApprovalSetting>;
  /** Human-readable problems with the raw value (shown once as a warning; bad entries are ignored). */
  problems: string[];
}

/** Validates a raw settings object (e.g. `arbor.tools.approval`) as `{ toolName: 'ask'|'allow'|'deny' }`. */
export function parseApprovalSettings(raw: unknown): ParsedApprovalSettings {
  const settings: Record<string, ApprovalSetting> = {};
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { settings, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings, problems: ['Tool approval settings must be an object like { "bash": "ask" }.'] };
  }
  for (const [tool, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string' && SETTINGS.has(value as ApprovalSetting)) settings[tool] = value as ApprovalSetting;
    else problems.push(`Tool approval for "${tool}" must be "ask", "allow" or "deny" (got ${JSON.stringify(value)}); using the default.`);
  }
  return { settings, problems };
}

/** A tool's setting when the user set none: one that changes nothing runs, anything else asks. */
export function defaultSetting(tool: Pick<AgentTool, 'effect'>): ApprovalSetting {
  return changesThings(tool) ? 'ask' : 'allow';
}

/** Everything one approval decision reads; `decideApproval` is the whole table (docs/reliability.md). */
export interface ApprovalFacts {
  tool: ApprovalTool;
  /** the user's setting for this tool, or its default */
  setting: ApprovalSetting;
  /** "Always allow for this session" was answered for this tool */
  remembered: boolean;
  /** protected files, hard links, commands naming them (sensitive-paths.ts): these always ask */
  warnings: readonly ApprovalWarning[];
  /** VS Code workspace trust: false is restricted mode */
  trusted: boolean;
  /** the session's approval mode (src/core/approval-modes.ts) */
  mode: ApprovalMode;
  /** a `writesFiles` call whose every target (at least one) lies inside the workspace */
  targetsInside: boolean;
}

/**
 * The whole table, first rule that applies wins:
 * 1. restricted mode refuses every tool that changes things (whatever the mode or settings);
 * 2. Plan mode refuses them too (they are not even offered);
 * 3. a "deny" setting refuses;
 * 4. any warning asks, whatever "allow", "always allow for this session" or Auto-edit say (a setting cannot
 *    approve a change to the files that hold the settings);
 * 5. "allow" or "always" runs;
 * 6. Auto-edit runs a `writesFiles` call whose every target lies inside the workspace (a `runs` tool, which
 *    may change anything, still asks);
 * 7. the tool's setting: `allow` for a tool that changes nothing, else ask.
 */
export function decideApproval(facts: ApprovalFacts): ApprovalDecision {
  const { tool } = facts;
  const changes = changesThings(tool);
  if (!facts.trusted && changes) return { kind: 'deny', reason: RESTRICTED_MODE_REASON };
  if (facts.mode === 'plan' && changes) return { kind: 'deny', reason: PLAN_MODE_REASON };
  if (facts.setting === 'deny') return { kind: 'deny', reason: `The ${tool.name} tool is turned off in Arbor's settings.` };
  if (facts.warnings.length > 0) return { kind: 'ask' };
  if (facts.setting === 'allow' || facts.remembered) return { kind: 'allow' };
  if (facts.mode === 'autoEdit' && tool.effect.kind === 'writesFiles' && facts.targetsInside) return { kind: 'allow' };
  return { kind: 'ask' };
}

/** What a decision reads besides the tool: trust, and the session's mode (default Ask). */
export interface ApprovalContext {
  trusted: boolean;
  mode?: ApprovalMode;
  /** see ApprovalFacts.targetsInside (default false: Auto-edit then asks) */
  targetsInside?: boolean;
}

export interface ApprovalPolicyOptions {
  /** Per-tool settings by tool name; a tool without one gets `defaultSetting` (its effect decides). */
  settings?: Readonly<Record<string, ApprovalSetting>>;
}

/** The settings and the session's "always" answers of one chat, applied through `decideApproval`. */
export class ApprovalPolicy {
  private settings: Record<string, ApprovalSetting>;
  private readonly alwaysAllowed = new Set<string>();

  constructor(options: ApprovalPolicyOptions = {}) {
    this.settings = { ...(options.settings ?? {}) };
  }

  /** Replaces the per-tool settings (configuration changed); session memory is kept. */
  updateSettings(settings: Readonly<Record<string, ApprovalSetting>>): void {
    this.settings = { ...settings };
  }

  settingFor(tool: ApprovalTool): ApprovalSetting {
    return Object.hasOwn(this.settings, tool.name) ? this.settings[tool.name]! : defaultSetting(tool);
  }

  decide(tool: ApprovalTool, context: ApprovalContext, warnings: readonly ApprovalWarning[] = []): ApprovalDecision {
    return decideApproval({
      tool,
      setting: this.settingFor(tool),
      remembered: this.alwaysAllowed.has(tool.name),
      warnings,
      trusted: context.trusted,
      mode: context.mode ?? 'ask',
      targetsInside: context.targetsInside ?? false,
    });
  }

  /** "Always allow for this session": later calls of this tool run without asking (deny still wins). */
  rememberAlways(toolName: string): void {
    this.alwaysAllowed.add(toolName);
  }

  isRememberedAlways(toolName: string): boolean {
    return this.alwaysAllowed.has(toolName);
  }

  /** Forgets session approvals (new session, or the user revoked them). */
  resetSession(): void {
    this.alwaysAllowed.clear();
  }

  /** Reason shown in the UI for tools that are off; undefined when the tool may run (maybe after asking). */
  disabledReason(tool: ApprovalTool, context: ApprovalContext): string | undefined {
    const decision = this.decide(tool, context);
    return decision.kind === 'deny' ? decision.reason : undefined;
  }
}

/** The user's answer to an 'ask'. */
export type ApprovalAnswer = { kind: 'approve' } | { kind: 'approveAlways' } | { kind: 'deny'; feedback?: string };

/** Applies an answer: remembers "always" and tells the caller whether the call runs. */
export function applyAnswer(policy: ApprovalPolicy, toolName: string, answer: ApprovalAnswer): boolean {
  if (answer.kind === 'approveAlways') policy.rememberAlways(toolName);
  return answer.kind !== 'deny';
}

/**
 * The tool result the model sees when a call does not run: the user said no (optionally with a
 * reason), or a setting / restricted mode refused it. Wording lives in prompts/system/tool-denied.md.
 */
export function deniedToolResult(toolName: string, denial: { by: 'user'; feedback?: string } | { by: 'policy'; reason: string }): ToolOutput {
  const text =
    denial.by === 'user'
      ? renderPrompt('system/tool-denied-user', {
          tool: toolName,
          feedback: denial.feedback?.trim() ? `\nThe user said: ${denial.feedback.trim()}` : '',
        })
      : renderPrompt('system/tool-denied-policy', { tool: toolName, reason: denial.reason });
  return {
    content: [{ type: 'text', text: text.trim() }],
    details: { denied: true, by: denial.by, ...(denial.by === 'user' ? { feedback: denial.feedback } : { reason: denial.reason }) },
    isError: true,
  };
}
