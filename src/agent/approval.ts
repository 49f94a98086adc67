// Which tool calls may run, must be confirmed by the user, or are refused. Pure logic: the extension
// reads the settings and workspace trust and asks the user; this module only decides.
import { renderPrompt } from '../core/prompts';
import type { ToolOutput } from './tools/types';

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

/** Defaults: tools that change files or run commands ask first; reading tools run freely. */
export const DEFAULT_APPROVAL: Readonly<Record<string, ApprovalSetting>> = {
  read: 'allow',
  ls: 'allow',
  find: 'allow',
  grep: 'allow',
  // TODO(seam): from the tool's effect (readOnly) once approval reads traits
  skill: 'allow',
  write: 'ask',
  edit: 'ask',
  bash: 'ask',
};

/** Tools disabled in an untrusted workspace (besides any tool the policy does not know). */
export const DEFAULT_MUTATING_TOOLS: readonly string[] = ['write', 'edit', 'bash'];

export const RESTRICTED_MODE_REASON =
  'Arbor is in restricted mode: this workspace is not trusted, so write, edit and bash are off.';

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

export interface ApprovalPolicyOptions {
  /** Per-tool settings; missing tools use DEFAULT_APPROVAL, unknown tools default to 'ask'. */
  settings?: Readonly<Record<string, ApprovalSetting>>;
  /** Tools that change things (default: write, edit, bash). Unknown tools count as mutating. */
  mutatingTools?: readonly string[];
  /** Tools known to be read-only (default: read, ls, find, grep, skill). */
  readOnlyTools?: readonly string[];
}

export class ApprovalPolicy {
  private settings: Record<string, ApprovalSetting>;
  private readonly mutating: Set<string>;
  private readonly readOnly: Set<string>;
  private readonly alwaysAllowed = new Set<string>();

  constructor(options: ApprovalPolicyOptions = {}) {
    this.settings = { ...(options.settings ?? {}) };
    this.mutating = new Set(options.mutatingTools ?? DEFAULT_MUTATING_TOOLS);
    this.readOnly = new Set(options.readOnlyTools ?? ['read', 'ls', 'find', 'grep', 'skill']);
    for (const name of this.mutating) this.readOnly.delete(name);
  }

  /** Replaces the per-tool settings (configuration changed); session memory is kept. */
  updateSettings(settings: Readonly<Record<string, ApprovalSetting>>): void {
    this.settings = { ...settings };
  }

  settingFor(toolName: string): ApprovalSetting {
    return this.settings[toolName] ?? DEFAULT_APPROVAL[toolName] ?? 'ask';
  }

  isMutating(toolName: string): boolean {
    return this.mutating.has(toolName) || !this.readOnly.has(toolName);
  }

  /**
   * Restricted mode and "deny" refuse; any warning asks, whatever "allow" or "always allow for this
   * session" say (a setting cannot approve a change to the files that hold the settings).
   */
  decide(toolName: string, context: { trusted: boolean }, warnings: readonly ApprovalWarning[] = []): ApprovalDecision {
    if (!context.trusted && this.isMutating(toolName)) return { kind: 'deny', reason: RESTRICTED_MODE_REASON };
    const setting = this.settingFor(toolName);
    if (setting === 'deny') {
      return { kind: 'deny', reason: `The ${toolName} tool is turned off in Arbor's settings.` };
    }
    if (warnings.length > 0) return { kind: 'ask' };
    if (setting === 'allow' || this.alwaysAllowed.has(toolName)) return { kind: 'allow' };
    return { kind: 'ask' };
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
  disabledReason(toolName: string, context: { trusted: boolean }): string | undefined {
    const decision = this.decide(toolName, context);
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
