// The live tool list. Built-in tools are one source; MCP servers, VS Code's tools and skills add and
// replace their own sources while a session runs, and the next request (tool definitions and system
// prompt) reads `list()` again. Names stay unique: a later source's tool whose name is taken gets a
// numbered suffix, so a server can never shadow `bash` or another server's tool. Every tool listed is
// remembered for compaction's view of history (src/core/tool-history.ts), so a tool removed later still
// counts right in the file ledger and pruning.
import { rememberToolTraits, type HistoryToolTraits } from '../../core/tool-history';
import type { AgentTool } from './types';

export const BUILTIN_SOURCE = 'builtin';

export class ToolRegistry {
  private readonly sources = new Map<string, readonly AgentTool[]>();
  private readonly listeners = new Set<() => void>();
  private cached: readonly AgentTool[] | undefined;
  /** every name this list has offered (to tell "removed meanwhile" from "never existed") */
  private readonly offered = new Set<string>();

  constructor(builtin: readonly AgentTool[] = []) {
    this.sources.set(BUILTIN_SOURCE, builtin);
  }

  /** Replaces a source's tools (an empty list keeps the source, with no tools). */
  set(sourceId: string, tools: readonly AgentTool[]): void {
    this.sources.set(sourceId, tools);
    this.changed();
  }

  remove(sourceId: string): void {
    if (this.sources.delete(sourceId)) this.changed();
  }

  /** The tools offered now, built-in first, each name unique. */
  list(): readonly AgentTool[] {
    if (!this.cached) {
      this.cached = uniqueNames([...this.sources.values()].flat());
      for (const tool of this.cached) {
        this.offered.add(tool.name);
        rememberToolTraits(tool.name, historyTraits(tool));
      }
    }
    return this.cached;
  }

  get(name: string): AgentTool | undefined {
    return this.list().find((tool) => tool.name === name);
  }

  /** The list once offered a tool of this name and no longer does. */
  wasRemoved(name: string): boolean {
    return this.offered.has(name) && this.get(name) === undefined;
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.cached = undefined;
    for (const listener of [...this.listeners]) listener();
  }
}

function uniqueNames(tools: readonly AgentTool[]): AgentTool[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const name = freeName(tool.name, taken);
    taken.add(name);
    return name === tool.name ? tool : { ...tool, name };
  });
}

function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = name.slice(0, 64 - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** What history needs of a tool (files read and changed, output kept), from its effect. */
export function historyTraits(tool: Pick<AgentTool, 'effect' | 'keepOutput'>): HistoryToolTraits {
  const { effect } = tool;
  return {
    ...(effect.kind === 'readOnly' && effect.reads ? { reads: effect.reads } : {}),
    ...(effect.kind === 'writesFiles' ? { writes: effect.targets } : {}),
    ...(tool.keepOutput ? { keepOutput: true } : {}),
  };
}
