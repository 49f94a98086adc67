// Runs the tool calls of one assistant message, one after another in the order the model wrote them.
// Each call is checked against the approval policy (restricted mode and "deny" settings refuse, "ask"
// asks the user, and so does a write of a protected file or a hard link: sensitive-paths.ts); a refused
// call becomes a tool result the model can read. Every call gets exactly one result, also when the user
// stops the agent: calls that did not run get a "skipped" result.
import type { ToolCall, ToolResultMessage } from '../core/messages';
import { renderPrompt } from '../core/prompts';
import { applyAnswer, deniedToolResult, type ApprovalPolicy, type ApprovalWarning } from './approval';
import type { ApprovalPrompter, ApprovalRequest, AgentEvent, ToolEndStatus } from './events';
import type { ApprovalMode } from '../core/approval-modes';
import type { NestedInstructions } from './instructions/nested-instructions';
import { approvalWarnings, targetsInsideWorkspace } from './sensitive-paths';
import { runTool, type AgentTool, type ToolOutput, type WorkspaceRoots, type ToolLimits } from './tools';
import { resolveCallTargets, type CallTarget } from './tools/paths';
import { effectCommand } from './tools/types';
import type { EditFeedback } from './tools/editor/after-edit';
import type { ToolRegistry } from './tools/tool-registry';

export interface ToolCallEnvironment {
  /** the live tool list: a call runs the tool of that name as it is when the call comes up */
  tools: Pick<ToolRegistry, 'list' | 'get' | 'wasRemoved'>;
  approval: ApprovalPolicy;
  prompter: ApprovalPrompter;
  workspace: WorkspaceRoots;
  trusted: boolean;
  /** the session's approval mode, read at each call (the user may switch while a turn runs) */
  mode?: () => ApprovalMode;
  limits?: Partial<ToolLimits>;
  approvalPreview?: (tool: AgentTool, args: Record<string, unknown>) => Promise<unknown>;
  /** folders outside the built-in list whose files always ask (Arbor's sessions directory) */
  protectedDirectories?: readonly string[];
  now: () => number;
  emit: (event: AgentEvent) => void;
  /** persists a tool result, resolving with its entry id */
  persist: (result: ToolResultMessage) => Promise<string>;
  /** file checkpoints (src/checkpoints): told before and after every tool that runs; never throws */
  checkpoints?: ToolCheckpoints;
  /** the editor's problems after a tool that writes files (VS Code only; src/agent/tools/editor/after-edit.ts) */
  editFeedback?: EditFeedback;
  /** adds nested AGENTS.md files under the paths a call worked on to its result, once per branch */
  nestedInstructions?: NestedInstructions;
}

/** What the tool loop tells file checkpoints; the recorder reads the tool's effect (what to capture) itself. */
export interface ToolCheckpoints {
  beforeTool(tool: AgentTool, args: Record<string, unknown>, targets?: readonly CallTarget[]): Promise<void>;
  afterTool(tool: AgentTool, args: Record<string, unknown>, targets?: readonly CallTarget[]): Promise<void>;
}

export const STOPPED_REASON = 'the user stopped the agent before it ran.';

export function skippedOutput(toolName: string, reason: string): ToolOutput {
  return {
    content: [{ type: 'text', text: renderPrompt('system/tool-skipped', { tool: toolName, reason }).trim() }],
    details: { skipped: true },
    isError: true,
  };
}

export function toolResultMessage(call: ToolCall, output: ToolOutput, timestamp: number): ToolResultMessage {
  const message: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    isError: output.isError,
    timestamp,
  };
  if (output.details !== undefined) message.details = output.details;
  return message;
}

async function finish(env: ToolCallEnvironment, call: ToolCall, output: ToolOutput, status: ToolEndStatus): Promise<void> {
  const result = toolResultMessage(call, output, env.now());
  const entryId = await env.persist(result);
  env.emit({ type: 'tool_end', toolCallId: call.id, toolName: call.name, status, result, entryId });
}

/** Persists a "did not run" result for each call (aborted/length/error replies, stopped runs). */
export async function skipToolCalls(env: ToolCallEnvironment, calls: readonly ToolCall[], reason: string): Promise<void> {
  for (const call of calls) await finish(env, call, skippedOutput(call.name, reason), 'skipped');
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Asks the user; a prompter that fails counts as a denial, never as an approval. */
async function askUser(env: ToolCallEnvironment, tool: AgentTool, call: ToolCall, warnings: ApprovalWarning[], signal: AbortSignal): Promise<ToolOutput | 'run' | 'aborted'> {
  const request: ApprovalRequest = { toolCallId: call.id, toolName: call.name, args: call.arguments };
  const command = effectCommand(tool.effect, call.arguments);
  if (command !== undefined) request.command = command;
  if (warnings.length > 0) request.warnings = warnings;
  if (env.approvalPreview) {
    try {
      const preview = await env.approvalPreview(tool, call.arguments);
      if (preview !== undefined) request.preview = preview;
    } catch {
      // A preview is a convenience: the user can still decide from the arguments.
    }
  }
  env.emit({ type: 'approval_request', request });
  let answer;
  try {
    answer = await abortable(env.prompter.ask(request, signal), signal);
  } catch (error) {
    const reason = `the approval prompt failed (${(error as Error)?.message ?? String(error)})`;
    env.emit({ type: 'approval_resolved', toolCallId: call.id, approved: false, reason });
    return deniedToolResult(call.name, { by: 'policy', reason });
  }
  if (answer === 'aborted') {
    env.emit({ type: 'approval_resolved', toolCallId: call.id, approved: false, reason: 'stopped' });
    return 'aborted';
  }
  const approved = applyAnswer(env.approval, call.name, answer);
  env.emit({ type: 'approval_resolved', toolCallId: call.id, approved, answer });
  if (approved) return 'run';
  return deniedToolResult(call.name, { by: 'user', ...(answer.kind === 'deny' && answer.feedback ? { feedback: answer.feedback } : {}) });
}

/** A call of a tool the list does not hold: never offered, or removed since the model saw it. */
function unknownToolOutput(env: ToolCallEnvironment, name: string): ToolOutput {
  const available = env.tools.list().map((t) => t.name).join(', ') || '(none)';
  const template = env.tools.wasRemoved(name) ? 'system/tool-removed' : 'system/tool-unknown';
  return { content: [{ type: 'text', text: renderPrompt(template, { tool: name, available }).trim() }], isError: true };
}

type NoteAfter = (signal: AbortSignal) => Promise<string | undefined>;

/** For a tool that writes files: the editor's problems in them now, to compare with after the call. */
async function editFeedbackFor(env: ToolCallEnvironment, tool: AgentTool, targets: readonly CallTarget[]): Promise<NoteAfter | undefined> {
  if (!env.editFeedback || tool.effect.kind !== 'writesFiles') return undefined;
  const paths = targets.flatMap((target) => (target.resolved ? [target.resolved.absolute] : []));
  return env.editFeedback.before(paths).catch(() => undefined);
}

/** Appends "Problems after this edit" to a successful result; a failing host adds nothing. */
async function withNote(output: ToolOutput, after: NoteAfter, signal: AbortSignal): Promise<ToolOutput> {
  const note = await after(signal).catch(() => undefined);
  return note ? { ...output, content: [...output.content, { type: 'text', text: note }] } : output;
}

/**
 * Runs `calls` in order. Returns 'aborted' when the signal fired (the current call got the tool's own
 * aborted result and the rest "skipped" results), else 'done'.
 */
export async function runToolCalls(env: ToolCallEnvironment, calls: readonly ToolCall[], signal: AbortSignal): Promise<'done' | 'aborted'> {
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    if (signal.aborted) {
      await skipToolCalls(env, calls.slice(i), STOPPED_REASON);
      return 'aborted';
    }
    env.emit({ type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
    const tool = env.tools.get(call.name);
    if (!tool) {
      await finish(env, call, unknownToolOutput(env, call.name), 'error');
      continue;
    }
    // A file-writing call's targets are resolved once: every check below, and the write, use this list.
    const targets = await resolveCallTargets(env.workspace, tool.effect, call.arguments);
    const warnings = await approvalWarnings(tool, call.arguments, env.workspace, { protectedDirectories: env.protectedDirectories ?? [] }, targets);
    const mode = env.mode?.() ?? 'ask';
    const targetsInside = mode === 'autoEdit' && targetsInsideWorkspace(targets);
    const decision = env.approval.decide(tool, { trusted: env.trusted, mode, targetsInside }, warnings);
    if (decision.kind === 'deny') {
      env.emit({ type: 'approval_resolved', toolCallId: call.id, approved: false, reason: decision.reason });
      await finish(env, call, deniedToolResult(call.name, { by: 'policy', reason: decision.reason }), 'denied');
      continue;
    }
    if (decision.kind === 'ask') {
      const asked = await askUser(env, tool, call, warnings, signal);
      if (asked === 'aborted') {
        await skipToolCalls(env, calls.slice(i), STOPPED_REASON);
        return 'aborted';
      }
      if (asked !== 'run') {
        await finish(env, call, asked, 'denied');
        continue;
      }
    }
    await env.checkpoints?.beforeTool(tool, call.arguments, targets);
    const feedback = await editFeedbackFor(env, tool, targets);
    let output = await runTool(tool, call.arguments, {
      workspace: env.workspace,
      signal,
      targets,
      onUpdate: (partialText) => env.emit({ type: 'tool_update', toolCallId: call.id, partialText }),
      ...(env.limits ? { limits: env.limits } : {}),
    });
    await env.checkpoints?.afterTool(tool, call.arguments, targets);
    if (feedback && !output.isError && !signal.aborted) output = await withNote(output, feedback, signal);
    if (env.nestedInstructions && !signal.aborted) output = await env.nestedInstructions.addTo(tool, call.arguments, output, targets).catch(() => output);
    await finish(env, call, output, signal.aborted ? 'aborted' : output.isError ? 'error' : 'done');
    if (signal.aborted) {
      await skipToolCalls(env, calls.slice(i + 1), STOPPED_REASON);
      return 'aborted';
    }
  }
  return 'done';
}
