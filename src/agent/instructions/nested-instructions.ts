// Nested AGENTS.md (else CLAUDE.md): when a tool reads or writes a file under a folder that has
// its own instruction file (between the file and its workspace folder's root), that file's text is added
// to the tool's result, once per branch: the result's `details.instructionFiles` names what was added,
// and a later call finds those names in the branch's messages. Claude Code adds nested CLAUDE.md files
// the same way, when it reads files under them (docs/architecture.md, "Skills and instruction files").
import type { ToolResultMessage } from '../../core/messages';
import { renderPrompt } from '../../core/prompts';
import { resolveInWorkspace, type CallTarget, type ResolvedPath } from '../tools/paths';
import type { AgentTool, ToolOutput, WorkspaceRoots } from '../tools/types';
import { readNestedInstructions, type InstructionFile } from './agents-files';

/** The files a call works on, from its effect: the files it writes, or those it reads when it names them. */
export function callPaths(tool: AgentTool, args: Record<string, unknown>): string[] {
  if (tool.effect.kind === 'writesFiles') return tool.effect.targets(args);
  if (tool.effect.kind === 'readOnly') return tool.effect.reads?.(args) ?? [];
  return [];
}

/** The instruction files a tool result says it added (its `details.instructionFiles`). */
export function instructionFilesOf(details: unknown): string[] {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return [];
  const files = (details as { instructionFiles?: unknown }).instructionFiles;
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
}

/** Every nested instruction file already added on this branch. */
export function instructionFilesIn(messages: readonly { role: string }[]): Set<string> {
  const seen = new Set<string>();
  for (const message of messages) {
    if (message.role === 'toolResult') for (const file of instructionFilesOf((message as ToolResultMessage).details)) seen.add(file);
  }
  return seen;
}

function withFiles(output: ToolOutput, files: readonly InstructionFile[]): ToolOutput {
  const notes = files.map((file) => renderPrompt('system/nested-instructions', { path: file.display, folder: file.appliesTo, content: file.content }));
  const names = files.map((file) => file.display);
  const details = output.details === undefined ? { instructionFiles: names } : isPlainObject(output.details) ? { ...output.details, instructionFiles: names } : output.details;
  return { ...output, content: [...output.content, { type: 'text', text: notes.join('').trimEnd().replace(/^\n+/, '\n\n') }], details };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** At most this much nested instruction text is added to one tool result (each file is cut at 32 KB). */
export const NESTED_PER_CALL_MAX_CHARS = 64 * 1024;
/** At most this much is added by one instance (one turn on one branch); later turns start again. */
export const NESTED_PER_TURN_MAX_CHARS = 256 * 1024;

function withLeftOut(output: ToolOutput, leftOut: readonly InstructionFile[]): ToolOutput {
  if (leftOut.length === 0) return output;
  const names = leftOut.map((file) => file.display).join(', ');
  const note = `\n\n[Nested instructions left out (more than ${NESTED_PER_CALL_MAX_CHARS / 1024} KB for one tool call or ${NESTED_PER_TURN_MAX_CHARS / 1024} KB for this turn): ${names}. Read them with \`read\` if they matter.]`;
  return { ...output, content: [...output.content, { type: 'text', text: note }] };
}

export class NestedInstructions {
  private seen: Set<string> | undefined;
  /** characters of nested instructions added by this instance */
  private added = 0;

  constructor(
    private readonly workspace: WorkspaceRoots,
    /** what the branch already holds (read once, on the first call that needs it) */
    private readonly inContext: () => Set<string>,
  ) {}

  /** `output` with the nested instruction files for this call added, when there are new ones. */
  async addTo(tool: AgentTool, args: Record<string, unknown>, output: ToolOutput, targets?: readonly CallTarget[]): Promise<ToolOutput> {
    if (output.isError) return output;
    const resolved = await this.resolvedPaths(tool, args, targets);
    if (resolved.length === 0) return output;
    const fresh: InstructionFile[] = [];
    const leftOut: InstructionFile[] = [];
    let callChars = 0;
    for (const target of resolved) {
      for (const file of await readNestedInstructions(this.workspace, target)) {
        this.seen ??= this.inContext();
        if (this.seen.has(file.display)) continue;
        if (!this.fits(callChars, file.content.length)) {
          leftOut.push(file);
          continue;
        }
        callChars += file.content.length;
        this.added += file.content.length;
        this.seen.add(file.display);
        fresh.push(file);
      }
    }
    return withLeftOut(fresh.length > 0 ? withFiles(output, fresh) : output, leftOut);
  }

  /** Where the call's paths lie: a file-writing call's targets as resolved for the call, else resolved here. */
  private async resolvedPaths(tool: AgentTool, args: Record<string, unknown>, targets: readonly CallTarget[] | undefined): Promise<ResolvedPath[]> {
    const known = tool.effect.kind === 'writesFiles' ? targets : undefined;
    const all = known ?? (await Promise.all(callPaths(tool, args).map(async (path) => ({ path, resolved: await resolveInWorkspace(this.workspace, path).catch(() => undefined) }))));
    return all.flatMap((target) => (target.resolved ? [target.resolved] : []));
  }

  /** Whether `size` more characters fit in this call's and this turn's budgets. */
  private fits(callChars: number, size: number): boolean {
    return callChars + size <= NESTED_PER_CALL_MAX_CHARS && this.added + size <= NESTED_PER_TURN_MAX_CHARS;
  }
}

