// Every configured MCP server of one extension host: started in the background (the chat never waits
// for one), its tools registered as the registry source `mcp:<name>` while it runs, re-registered when
// its list changes, removed when it stops or fails. The status (state, tool count, last failure) is
// what the host's "MCP Servers" view shows; restart and stop are its actions. A repository's server
// never gets a tool named under one of the user's servers (`<user server>_…`): whoever started first,
// that name and the user's approvals for it stay the user's (docs/reliability.md, "MCP server (tool names)").
import type { AgentTool } from '../agent/tools/types';
import { toolNameChars } from '../agent/tools/json-tool';
import { launchLine, type InputSpec, type ServerConfig } from './config';
import type { McpConnection, McpToolInfo } from './connection';
import { describeFailure, type ServerFailure } from './failures';
import { resolveConfig, type PlaceholderHost } from './placeholders';

type Runtime = typeof import('./runtime');

/** The client itself, loaded when the first server starts (a file of its own in the build: runtime.ts). */
function loadRuntime(): Promise<Runtime> {
  return import('./runtime');
}

export type ServerState = 'disabled' | 'starting' | 'running' | 'failed' | 'stopped';
export type ServerSource = 'user' | 'workspace';

export interface ServerEntry {
  config: ServerConfig;
  source: ServerSource;
  inputs?: InputSpec[];
  /** where its `${input:…}` answers are kept apart from other servers' ('user', or the workspace consent key) */
  scope?: string;
}

export interface ServerStatus {
  name: string;
  source: ServerSource;
  state: ServerState;
  /** what runs: the command line or the URL */
  launch: string;
  toolCount: number;
  /** the names the model sees */
  tools: string[];
  /** each tool's description as the model reads it (a server's own text: shown to the user too) */
  descriptions: string[];
  failure?: ServerFailure;
  failureText?: string;
}

/** The live tool list, as far as this module needs it (src/agent/tools/tool-registry.ts). */
export interface ToolSink {
  set(sourceId: string, tools: readonly AgentTool[]): void;
  remove(sourceId: string): void;
}

export interface McpServersHost {
  tools: ToolSink;
  placeholders: PlaceholderHost;
  log(server: string, line: string): void;
}

interface Slot {
  entry: ServerEntry;
  fingerprint: string;
  status: ServerStatus;
  connection?: McpConnection;
  /** the tools the server listed last (kept to publish again when the user's servers change) */
  listed?: McpToolInfo[];
  /** bumped on every start/stop so a late answer from an old connection is ignored */
  generation: number;
}

export function sourceIdOf(server: string): string {
  return `mcp:${server}`;
}

export class McpServers {
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Set<() => void>();
  private runtime: Runtime | undefined;

  constructor(private readonly host: McpServersHost) {}

  /** Applies the configured servers: new or changed ones (re)start, removed ones stop, others stay. */
  configure(entries: ReadonlyMap<string, ServerEntry>): void {
    for (const name of [...this.slots.keys()]) if (!entries.has(name)) void this.drop(name);
    for (const [name, entry] of entries) {
      const fingerprint = `${entry.source}|${JSON.stringify(entry.config)}`;
      const slot = this.slots.get(name);
      if (slot && slot.fingerprint === fingerprint) continue;
      this.slots.set(name, { entry, fingerprint, status: initialStatus(name, entry), generation: (slot?.generation ?? 0) + 1, connection: slot?.connection });
      void this.restart(name);
    }
    for (const slot of this.slots.values()) if (slot.entry.source === 'workspace' && slot.connection && slot.listed) this.publish(slot, slot.connection, slot.listed);
    this.changed();
  }

  list(): ServerStatus[] {
    return [...this.slots.values()].map((s) => ({ ...s.status, tools: [...s.status.tools], descriptions: [...s.status.descriptions] }));
  }

  get(name: string): ServerStatus | undefined {
    return this.list().find((s) => s.name === name);
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the server (if running) and starts it again; a disabled server only stops. */
  async restart(name: string): Promise<ServerStatus | undefined> {
    const slot = this.slots.get(name);
    if (!slot) return undefined;
    const generation = ++slot.generation;
    await this.stopConnection(slot);
    if (slot.entry.config.enabled === false) {
      this.update(slot, { state: 'disabled', toolCount: 0, tools: [], descriptions: [], failure: undefined, failureText: undefined });
      return this.get(name);
    }
    this.update(slot, { state: 'starting', failure: undefined, failureText: undefined });
    await this.start(name, slot, generation);
    return this.get(name);
  }

  /** Stops a server until the next restart or configuration change. */
  async stop(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    slot.generation++;
    await this.stopConnection(slot);
    this.update(slot, { state: 'stopped', toolCount: 0, tools: [], descriptions: [] });
  }

  private async start(name: string, slot: Slot, generation: number): Promise<void> {
    const resolved = await resolveConfig(slot.entry.config, this.host.placeholders, slot.entry.inputs, name);
    if (generation !== slot.generation) return;
    if (!resolved.ok) return this.fail(slot, { kind: 'config', message: resolved.reason });
    this.host.log(name, `starting: ${launchLine(slot.entry.config)}`);
    const runtime = (this.runtime ??= await loadRuntime());
    if (generation !== slot.generation) return;
    const connection = new runtime.McpConnection(name, resolved.value, {
      log: (line) => this.host.log(name, line),
      toolsChanged: (tools) => generation === slot.generation && this.publish(slot, connection, tools),
      closed: (failure) => generation === slot.generation && this.fail(slot, failure),
    });
    slot.connection = connection;
    const outcome = await connection.start();
    if (generation !== slot.generation) return void connection.close();
    if (!outcome.ok) return this.fail(slot, outcome.failure);
    this.publish(slot, connection, outcome.tools);
  }

  private publish(slot: Slot, connection: McpConnection, listed: McpToolInfo[]): void {
    const name = slot.status.name;
    slot.listed = listed;
    const tools = this.withoutUserNames(slot, this.runtime!.toolsOf(name, slot.entry.config, connection, listed));
    this.host.tools.set(sourceIdOf(name), tools);
    this.host.log(name, `running with ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    this.update(slot, { state: 'running', toolCount: tools.length, tools: tools.map((t) => t.name), descriptions: tools.map((t) => t.description) });
  }

  /** A workspace server's tools minus those named under a user server's prefix (each refusal logged). */
  private withoutUserNames(slot: Slot, tools: AgentTool[]): AgentTool[] {
    if (slot.entry.source !== 'workspace') return tools;
    const prefixes = [...this.slots.values()].filter((s) => s.entry.source === 'user').map((s) => namePrefixOf(s.status.name));
    return tools.filter((tool) => {
      const owner = prefixes.find((prefix) => tool.name.startsWith(prefix) || `${tool.name}_` === prefix);
      if (owner) this.host.log(slot.status.name, `tool ${tool.name} not offered: its name is under the user's server "${owner.slice(0, -1)}"`);
      return !owner;
    });
  }

  private fail(slot: Slot, failure: ServerFailure): void {
    this.host.tools.remove(sourceIdOf(slot.status.name));
    const failureText = describeFailure(failure);
    this.host.log(slot.status.name, `failed: ${failureText}`);
    slot.connection = undefined;
    this.update(slot, { state: 'failed', toolCount: 0, tools: [], descriptions: [], failure, failureText });
  }

  private async stopConnection(slot: Slot): Promise<void> {
    this.host.tools.remove(sourceIdOf(slot.status.name));
    const connection = slot.connection;
    slot.connection = undefined;
    await connection?.close();
  }

  private async drop(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    slot.generation++;
    await this.stopConnection(slot);
    this.changed();
  }

  private update(slot: Slot, patch: Partial<ServerStatus>): void {
    slot.status = { ...slot.status, ...patch };
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.slots.keys()].map((name) => this.drop(name)));
  }
}

/** `<server>_` as tool names spell it (src/mcp/tools.ts toolNameOf). */
function namePrefixOf(server: string): string {
  return `${toolNameChars(server)}_`;
}

function initialStatus(name: string, entry: ServerEntry): ServerStatus {
  return { name, source: entry.source, state: entry.config.enabled === false ? 'disabled' : 'starting', launch: launchLine(entry.config), toolCount: 0, tools: [], descriptions: [] };
}

