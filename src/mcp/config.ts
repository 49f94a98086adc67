// The MCP server configuration: the `servers` map of VS Code's mcp.json (stdio: command/args/env/cwd;
// http or sse: url/headers), plus Arbor's per-server choices (enabled, tools turned off, tools the user
// lets run without asking, whether a server's readOnlyHint may lower a tool's approval). Parsed with
// zod so that one bad server gets a clear message and the others still start (docs/mcp.md).
import { z } from 'zod';
import { stripJsonComments } from '../core/jsonc';

const stringMap = z.record(z.string(), z.string());

/** Arbor's own choices, accepted on every server entry beside VS Code's fields. */
const arborFields = {
  /** false: configured but not started, its tools not offered */
  enabled: z.boolean().optional(),
  /** tool names (as the server names them) never offered to the model */
  disabledTools: z.array(z.string()).optional(),
  /** tool names the user treats as read-only: they run without asking and in restricted mode */
  readOnlyTools: z.array(z.string()).optional(),
  /** let the server's `readOnlyHint` annotation mark a tool read-only (off unless the user says so) */
  trustReadOnlyHints: z.boolean().optional(),
  /** seconds to wait for the server to start and answer `initialize` (default 30) */
  startupTimeout: z.number().positive().max(600).optional(),
  /** seconds one tool call may take without progress (default 300) */
  toolTimeout: z.number().positive().max(3600).optional(),
};

const stdioServer = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional(),
  cwd: z.string().optional(),
  ...arborFields,
});

const remoteServer = z.object({
  type: z.enum(['http', 'sse']).optional(),
  url: z.string().min(1),
  headers: stringMap.optional(),
  ...arborFields,
});

export type StdioServerConfig = z.infer<typeof stdioServer> & { type: 'stdio' };
export type RemoteServerConfig = z.infer<typeof remoteServer> & { type: 'http' | 'sse' };
export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** One input an mcp.json declares for `${input:id}` (VS Code's `inputs` array). */
export interface InputSpec {
  id: string;
  description?: string;
  password?: boolean;
}

const inputSpec = z.object({
  type: z.string().optional(),
  id: z.string().min(1),
  description: z.string().optional(),
  password: z.boolean().optional(),
});

export interface ParsedServers {
  servers: Map<string, ServerConfig>;
  inputs: InputSpec[];
  /** one line per server that could not be read, naming it */
  problems: string[];
}

function parseServer(name: string, raw: unknown): ServerConfig | string {
  if (!raw || typeof raw !== 'object') return `server "${name}": expected an object`;
  const value = raw as Record<string, unknown>;
  const type = value.type ?? ('url' in value ? 'http' : 'stdio');
  if (type === 'stdio') {
    const parsed = stdioServer.safeParse(value);
    return parsed.success ? { ...parsed.data, type: 'stdio' } : issueLine(name, parsed.error);
  }
  if (type === 'http' || type === 'sse') {
    const parsed = remoteServer.safeParse(value);
    return parsed.success ? { ...parsed.data, type } : issueLine(name, parsed.error);
  }
  return `server "${name}": unknown type ${JSON.stringify(type)} (expected "stdio", "http" or "sse")`;
}

function issueLine(name: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return `server "${name}": ${where}${issue?.message ?? 'invalid'}`;
}

/** Reads a `servers` map (the value of `arbor.mcp.servers`, or mcp.json's `servers`). */
export function parseServers(raw: unknown, inputs: unknown = []): ParsedServers {
  const out: ParsedServers = { servers: new Map(), inputs: parseInputs(inputs), problems: [] };
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    out.problems.push('expected an object mapping server names to their configuration');
    return out;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseServer(name, value);
    if (typeof parsed === 'string') out.problems.push(parsed);
    else out.servers.set(name, parsed);
  }
  return out;
}

function parseInputs(raw: unknown): InputSpec[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = inputSpec.safeParse(item);
    return parsed.success ? [{ id: parsed.data.id, description: parsed.data.description, password: parsed.data.password }] : [];
  });
}

/** Reads a whole mcp.json text (`{ servers, inputs }`); a file that is not JSON is one problem. */
export function parseMcpJson(text: string): ParsedServers {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    return { servers: new Map(), inputs: [], problems: [`not valid JSON: ${(error as Error).message}`] };
  }
  const obj = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  return parseServers(obj.servers, obj.inputs);
}

/** What the consent question shows and what its remembered answer is keyed by: the exact thing that runs. */
export function launchLine(config: ServerConfig): string {
  if (config.type === 'stdio') return [config.command, ...(config.args ?? [])].map(quoteArg).join(' ');
  return `${config.type.toUpperCase()} ${config.url}`;
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** A stable text of everything that decides what runs (command, args, env, cwd, url, headers). */
export function launchFingerprint(config: ServerConfig): string {
  const fields = config.type === 'stdio'
    ? { type: config.type, command: config.command, args: config.args ?? [], env: sorted(config.env), cwd: config.cwd ?? '' }
    : { type: config.type, url: config.url, headers: sorted(config.headers) };
  return JSON.stringify(fields);
}

function sorted(map: Record<string, unknown> | undefined): [string, unknown][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => a.localeCompare(b));
}
