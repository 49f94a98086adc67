// One running MCP server: its SDK Client over stdio, Streamable HTTP or (the SDK's documented fallback)
// SSE; started with a timeout whose failure is a typed ServerFailure; its tool list re-read on
// `notifications/tools/list_changed`; its log messages and stderr lines handed to the host's log; tool
// calls with progress and cancellation (the call's AbortSignal → the SDK sends notifications/cancelled).
import { errorText } from '../core/error-text';
import type { Stream } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from './config';
import { cappedFetch } from './capped-fetch';
import { isNotFound, type ServerFailure } from './failures';
import { observedStdio, type ObservedStdio, type ProcessExit } from './stdio-transport';

type Sdk = typeof import('./mcp-sdk');

/** The SDK, loaded when the first server starts (a file of its own in the build: mcp-sdk.ts). */
export function loadMcpSdk(): Promise<Sdk> {
  return import('./mcp-sdk');
}

/** A tool as the server lists it (only the fields Arbor reads). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

export interface ConnectionHooks {
  log(line: string): void;
  toolsChanged(tools: McpToolInfo[]): void;
  /** the server went away on its own after it had started */
  closed(failure: ServerFailure): void;
}

export type StartOutcome = { ok: true; tools: McpToolInfo[] } | { ok: false; failure: ServerFailure };

export interface CallOptions {
  signal: AbortSignal;
  onProgress?(progress: number, total: number | undefined, message: string | undefined): void;
  timeoutMs: number;
}

const CLIENT_INFO = { name: 'arbor', version: '0.1.0' };
const STDERR_LINES = 20;
/** largest single message a stdio server may send (a larger one closes the connection), and largest HTTP answer */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_TOOLS = 500;
const EXIT_WAIT_MS = 500;

export class McpConnection {
  private client: Client | undefined;
  private stdio: ObservedStdio | undefined;
  private sdk!: Sdk;
  private closing = false;
  readonly stderr: string[] = [];
  /** the transport's first error since the last answered call (e.g. a message over the size limit), named when a call fails because of it */
  lastError: string | undefined;

  constructor(
    readonly name: string,
    private readonly config: ServerConfig,
    private readonly hooks: ConnectionHooks,
    private readonly startupMs = (config.startupTimeout ?? 30) * 1000,
  ) {}

  async start(): Promise<StartOutcome> {
    try {
      this.sdk = await loadMcpSdk();
      const connected = await this.withTimeout(this.connect());
      if (!connected.ok) return connected;
      return { ok: true, tools: await this.withTimeout(this.listTools()).then((r) => (r.ok ? r.value : [])) };
    } catch (error) {
      const failure = await this.failureOf(error);
      await this.close();
      return { ok: false, failure };
    }
  }

  private async connect(): Promise<{ ok: true; value: void } | { ok: false; failure: ServerFailure }> {
    if (this.config.type === 'stdio') {
      await this.connectWith(this.stdioTransport(this.config));
      return { ok: true, value: undefined };
    }
    return this.connectRemote(this.config);
  }

  private async connectRemote(config: RemoteServerConfig): Promise<{ ok: true; value: void } | { ok: false; failure: ServerFailure }> {
    const url = urlOf(config.url);
    if (!url) return { ok: false, failure: { kind: 'config', message: `"${config.url}" is not an http(s) URL` } };
    const requestInit = { headers: config.headers ?? {} };
    const options = { requestInit, fetch: cappedFetch(MAX_MESSAGE_BYTES) };
    const { SSEClientTransport, StreamableHTTPClientTransport, StreamableHTTPError } = this.sdk;
    if (config.type === 'sse') {
      await this.connectWith(new SSEClientTransport(url, options));
      return { ok: true, value: undefined };
    }
    try {
      await this.connectWith(new StreamableHTTPClientTransport(url, options));
    } catch (error) {
      if (!isOldServer(error, StreamableHTTPError)) throw error;
      await this.client?.close().catch(() => undefined);
      this.hooks.log(`Streamable HTTP refused (${errorText(error)}); trying the older SSE transport`);
      await this.connectWith(new SSEClientTransport(url, options));
    }
    return { ok: true, value: undefined };
  }

  private stdioTransport(config: StdioServerConfig): Transport {
    const env = Object.fromEntries(Object.entries(config.env ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const stdio = observedStdio(this.sdk.StdioClientTransport, {
      command: config.command, args: config.args ?? [], env, cwd: config.cwd, stderr: 'pipe', maxBufferSize: MAX_MESSAGE_BYTES,
    });
    this.readStderr(stdio.transport.stderr);
    this.stdio = stdio;
    return stdio.transport;
  }

  private readStderr(stderr: Stream | null): void {
    let partial = '';
    stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop()?.slice(-4096) ?? '';
      for (const line of lines) this.stderrLine(line);
    });
  }

  private stderrLine(line: string): void {
    if (line.trim() === '') return;
    const shown = line.length > 1000 ? `${line.slice(0, 1000)}…` : line;
    this.stderr.push(shown);
    if (this.stderr.length > STDERR_LINES) this.stderr.shift();
    this.hooks.log(`stderr: ${shown}`);
  }

  private async connectWith(transport: Transport): Promise<void> {
    const { Client, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } = this.sdk;
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.relist());
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => this.hooks.log(logLine(n.params)));
    client.onerror = (error) => {
      const text = errorText(error).slice(0, 500);
      // the first error since the last answered call is the cause; later ones are its echoes (the rest of
      // an oversized line read as messages of its own)
      this.lastError ??= text;
      this.hooks.log(`transport error: ${text}`);
    };
    this.client = client;
    await client.connect(transport);
    // only a connection that was made can go away: a refused first attempt (the SSE fallback) is no failure
    client.onclose = () => {
      if (this.client === client) void this.closedByServer();
    };
  }

  private async relist(): Promise<void> {
    const listed = await this.listTools().catch((error: unknown) => ({ ok: false as const, error }));
    if (listed.ok) this.hooks.toolsChanged(listed.value);
    else this.hooks.log(`could not re-list the tools: ${errorText((listed as { error: unknown }).error)}`);
  }

  private async listTools(): Promise<{ ok: true; value: McpToolInfo[] }> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.tools) return { ok: true, value: [] };
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < MAX_TOOLS);
    return { ok: true, value: tools.slice(0, MAX_TOOLS) };
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const client = this.client;
    if (!client) throw new Error(`the MCP server "${this.name}" is not running`);
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: options.signal,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: options.onProgress ? (p) => options.onProgress?.(p.progress, p.total, p.message) : undefined,
    });
    this.lastError = undefined;
    return result;
  }

  private async closedByServer(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.client = undefined;
    this.hooks.closed(await this.exitFailure('the connection closed'));
  }

  private async exitFailure(message: string): Promise<ServerFailure> {
    const stdio = this.stdio;
    if (!stdio) return { kind: 'protocol', message, stderr: [...this.stderr] };
    const exit = stdio.exit() ?? (await new Promise<ProcessExit | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), EXIT_WAIT_MS);
      stdio.onExit((e) => (clearTimeout(timer), resolve(e)));
    }));
    if (!exit) return { kind: 'protocol', message, stderr: [...this.stderr] };
    return { kind: 'exited', code: exit.code, signal: exit.signal, stderr: [...this.stderr] };
  }

  private async failureOf(error: unknown): Promise<ServerFailure> {
    if (error instanceof StartTimeout) return { kind: 'timeout', seconds: Math.round(this.startupMs / 1000), stderr: [...this.stderr] };
    if (this.config.type === 'stdio' && isNotFound(error)) return { kind: 'commandNotFound', command: this.config.command };
    if (this.config.type !== 'stdio') return httpFailure(error);
    return this.exitFailure(errorText(error));
  }

  private async withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartTimeout()), this.startupMs);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await this.stdio?.transport.close().catch(() => undefined);
  }
}

class StartTimeout extends Error {}

function urlOf(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A server that only speaks the older HTTP+SSE transport answers a Streamable HTTP POST with 4xx. */
function isOldServer(error: unknown, StreamableHTTPError: Sdk['StreamableHTTPError']): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && [400, 404, 405].includes(error.code);
}

function httpFailure(error: unknown): ServerFailure {
  const status = (error as { code?: unknown }).code;
  const message = errorText(error).slice(0, 500);
  return typeof status === 'number' && status >= 100 && status < 600 ? { kind: 'http', status, message } : { kind: 'http', message };
}

function logLine(params: { level: string; logger?: string; data?: unknown }): string {
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  const text = `[${params.level}]${params.logger ? ` ${params.logger}:` : ''} ${data ?? ''}`;
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
