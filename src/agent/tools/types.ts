// The contract every agent tool implements, and `runTool`, the single entry point the agent loop uses
// to run one. Tools never throw at the loop: bad arguments, confinement violations, I/O failures and
// aborts all come back as a ToolOutput with `isError: true` and a message the model can act on.
import { z } from 'zod';
import { namedPaths } from '../../core/tool-history';
import type { ImageContent, TextContent } from '../../core/messages';
import type { CallTarget } from './paths';

export interface WorkspaceFolder {
  /** Display name (VS Code's folder name); used as the `name/...` prefix in multi-root workspaces. */
  name: string;
  /** Absolute path of the folder. */
  path: string;
}

export interface WorkspaceRoots {
  /** The first folder is the default base for relative paths and the cwd of `bash`. */
  folders: readonly WorkspaceFolder[];
}

/** Size caps shared by all tools; every field has a default in DEFAULT_TOOL_LIMITS. */
export interface ToolLimits {
  /** read: most lines returned per call */
  readMaxLines: number;
  /** read: most bytes of text returned per call */
  readMaxBytes: number;
  /** read: longest single line shown before it is cut */
  maxLineChars: number;
  /** read: largest image returned as ImageContent */
  imageMaxBytes: number;
  /** bash: tail kept of the combined output */
  outputMaxLines: number;
  outputMaxBytes: number;
  /** bash: default and maximum timeout in seconds */
  bashDefaultTimeoutSec: number;
  bashMaxTimeoutSec: number;
  /** ls / find / grep default result counts, and the hard cap on any requested limit */
  lsDefaultLimit: number;
  findDefaultLimit: number;
  grepDefaultLimit: number;
  maxResultLimit: number;
  /** write/edit: largest previous content kept in `details` for the diff view */
  diffMaxBytes: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readMaxLines: 2000,
  readMaxBytes: 50 * 1024,
  maxLineChars: 2000,
  imageMaxBytes: 5 * 1024 * 1024,
  outputMaxLines: 2000,
  outputMaxBytes: 50 * 1024,
  bashDefaultTimeoutSec: 120,
  bashMaxTimeoutSec: 600,
  lsDefaultLimit: 500,
  findDefaultLimit: 1000,
  grepDefaultLimit: 100,
  maxResultLimit: 5000,
  diffMaxBytes: 2 * 1024 * 1024,
};

export interface ToolContext {
  workspace: WorkspaceRoots;
  signal: AbortSignal;
  /** Streaming progress (bash output so far); the text replaces, not appends to, earlier updates. */
  onUpdate?(partialText: string): void;
  limits?: Partial<ToolLimits>;
  /** a file-writing call's targets as resolved for its checks: the writer opens these (paths.ts writeTarget) */
  targets?: readonly CallTarget[];
}

export interface ToolOutput {
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
}

/**
 * What running a tool may change. Approval, restricted mode, file checkpoints, the approval preview,
 * the sensitive-path checks, the cards and compaction's file ledger read this, never the tool's name
 * (docs/architecture.md, "Tools").
 * - `readOnly`: changes nothing; runs in restricted mode; no checkpoint. `reads(args)` (when given) names
 *   the files a call reads, for compaction's file ledger.
 * - `writesFiles`: changes exactly the workspace files `targets(args)` names (paths as the model gave
 *   them); checkpoints record those files, approval checks them against the write policy, and
 *   `proposed` (when given) lets the user review the change in a diff before approving.
 * - `runs`: may change anything (commands, tools nobody here wrote): asks like `bash`, off in restricted
 *   mode, and checkpoints scan the whole workspace after it; `command(args)` is what the card shows
 *   and what the sensitive-path check reads, when there is one.
 */
export type ToolEffect =
  | { kind: 'readOnly'; reads?(args: Record<string, unknown>): string[] }
  | {
      kind: 'writesFiles';
      targets(args: Record<string, unknown>): string[];
      /** the file's content after the call, from its content before ('' when new); undefined: no preview */
      proposed?(args: Record<string, unknown>, original: string, isNewFile: boolean): string | undefined;
    }
  | { kind: 'runs'; command?(args: Record<string, unknown>): string | undefined };

/** The files a `writesFiles` call names (none for other effects, or when an outside tool's `targets` fails). */
export function effectTargets(effect: ToolEffect, args: Record<string, unknown>): string[] {
  return effect.kind === 'writesFiles' ? namedPaths(() => effect.targets(args)) : [];
}

/** What a `runs` call says it runs (undefined for other effects, or when an outside tool's `command` fails). */
export function effectCommand(effect: ToolEffect, args: Record<string, unknown>): string | undefined {
  if (effect.kind !== 'runs' || !effect.command) return undefined;
  const [command] = namedPaths(() => [effect.command!(args)]);
  return command;
}

/** Where a tool comes from: shown on its card and in the tool list, and keyed in approval settings. */
export type ToolOrigin =
  | { kind: 'builtin' }
  | { kind: 'mcp'; server: string; tool: string }
  | { kind: 'vscode'; tool: string };

export interface AgentTool<Args = any> {
  /** unique in the live tool list; what the model calls ([A-Za-z0-9_-]{1,64}) */
  name: string;
  description: string;
  /** JSON Schema of the arguments (generated from `argsSchema`, or given by an outside tool). */
  parameters: Record<string, unknown>;
  /** validates raw arguments; outside tools wrap a JSON Schema validator (defineJsonTool) */
  argsSchema: z.ZodType<Args>;
  effect: ToolEffect;
  origin: ToolOrigin;
  /** compaction never prunes this tool's output (its results are instructions or file contents) */
  keepOutput?: boolean;
  execute(args: Args, ctx: ToolContext): Promise<ToolOutput>;
}

/** What approval, checkpoints, previews and the cards read of a tool: never its name alone. */
export type ToolTraits = Pick<AgentTool, 'name' | 'effect' | 'origin' | 'keepOutput'>;

/** Changes files or runs something: asks by default and is off in restricted mode. */
export function changesThings(tool: Pick<AgentTool, 'effect'>): boolean {
  return tool.effect.kind !== 'readOnly';
}

/** An error whose message is meant for the model as is (no stack, no "Error:" prefix). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function limitsOf(ctx: ToolContext): ToolLimits {
  return { ...DEFAULT_TOOL_LIMITS, ...(ctx.limits ?? {}) };
}

export function textOutput(text: string, details?: unknown, isError = false): ToolOutput {
  return details === undefined
    ? { content: [{ type: 'text', text }], isError }
    : { content: [{ type: 'text', text }], details, isError };
}

export function errorOutput(text: string, details?: unknown): ToolOutput {
  return textOutput(text, details, true);
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolError('The tool call was aborted.');
}

/**
 * JSON Schema for the provider, from the zod schema. Drops what providers trip over or that only adds
 * noise: the `$schema` key and zod's safe-integer bounds.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema) as Record<string, unknown>;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as Record<string, unknown>;
}

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}

/** A built-in tool's declaration: its JSON schema is derived from the zod schema. */
export type ToolSpec<Args> = Omit<AgentTool<Args>, 'parameters' | 'origin'> & { origin?: ToolOrigin };

/** Helper to declare a tool with its JSON schema derived from the zod schema. */
export function defineTool<Args>(spec: ToolSpec<Args>): AgentTool<Args> {
  return {
    ...spec,
    origin: spec.origin ?? { kind: 'builtin' },
    parameters: jsonSchemaOf(spec.argsSchema),
  };
}

function describeIssues(toolName: string, error: z.ZodError): string {
  const lines = error.issues.slice(0, 10).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)';
    return `- ${where}: ${issue.message}`;
  });
  if (error.issues.length > 10) lines.push(`- … ${error.issues.length - 10} more problems`);
  return `Invalid arguments for tool "${toolName}":\n${lines.join('\n')}`;
}

const ABORT_GRACE_MS = 2500;

function abortedOutput(toolName: string): ToolOutput {
  return errorOutput(`The ${toolName} tool call was aborted.`);
}

function isToolOutput(value: unknown): value is ToolOutput {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<ToolOutput>;
  return Array.isArray(v.content) && typeof v.isError === 'boolean';
}

/**
 * Validates `rawArgs`, runs the tool and turns every failure into an error result. Resolves as soon as
 * the signal aborts, even if the tool is slow to notice (tools that spawn processes kill them
 * themselves on the same signal).
 */
export async function runTool(tool: AgentTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutput> {
  if (ctx.signal.aborted) return abortedOutput(tool.name);
  const parsed = tool.argsSchema.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const schema = JSON.stringify(tool.parameters);
    return errorOutput(`${describeIssues(tool.name, parsed.error)}\nExpected arguments (JSON Schema): ${schema}`);
  }
  let onAbort: (() => void) | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  // On abort the tool gets a short grace period to return its own result (bash reports the output
  // it had before being killed); after that the call ends regardless.
  const aborted = new Promise<ToolOutput>((resolve) => {
    onAbort = () => {
      graceTimer = setTimeout(() => resolve(abortedOutput(tool.name)), ABORT_GRACE_MS);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  const running = (async (): Promise<ToolOutput> => {
    try {
      const output = await tool.execute(parsed.data, ctx);
      if (!isToolOutput(output)) return errorOutput(`The ${tool.name} tool returned no result.`);
      return output;
    } catch (error) {
      if (ctx.signal.aborted) return abortedOutput(tool.name);
      if (error instanceof ToolError) return errorOutput(error.message, error.details);
      return errorOutput(`The ${tool.name} tool failed: ${describeError(error)}`);
    }
  })();
  try {
    return await Promise.race([running, aborted]);
  } finally {
    if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
    clearTimeout(graceTimer);
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
