// What compaction needs to know about a tool whose calls lie in stored history: which files a call read or
// changed (the summary's file ledger) and whether its output is never pruned. The live tool list
// (src/agent/tools/tool-registry.ts) remembers the traits of every tool it offered in this process, so a
// tool that went away meanwhile (an MCP server stopped) still counts as it did; tools this process never
// saw fall back to the built-in defaults below (sessions written before a restart, or by pi), and a
// tool nobody knows counts as touching no file, with prunable output. See docs/architecture.md, "Tools".

export interface HistoryToolTraits {
  /** files a call read (paths as the model gave them) */
  reads?(args: Record<string, unknown>): string[];
  /** files a call changed */
  writes?(args: Record<string, unknown>): string[];
  /** compaction never prunes this tool's output (its results are instructions or file contents) */
  keepOutput?: boolean;
}

/** The `path` argument of a file tool as its only path (the built-ins' reads and writes). */
export function pathArg(args: Record<string, unknown>): string[] {
  return typeof args.path === 'string' && args.path !== '' ? [args.path] : [];
}

/** The paths a tool's trait names for a call; none when it throws or returns no list (outside tools, stored calls). */
export function namedPaths(read: () => unknown): string[] {
  try {
    const list = read();
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p !== '') : [];
  } catch {
    return [];
  }
}

/**
 * The built-in tools (pi's names, the same in Arbor) and `skill`, as history knows them when the live
 * list never had them. test/unit/tools/tool-seam.test.ts checks this table against the tools' own traits.
 */
export const BUILTIN_HISTORY_TRAITS: Readonly<Record<string, HistoryToolTraits>> = Object.freeze({
  read: { reads: pathArg, keepOutput: true },
  write: { writes: pathArg },
  edit: { writes: pathArg },
  skill: { keepOutput: true },
});

const remembered = new Map<string, HistoryToolTraits>();

/** Called by the live tool list for every tool it offers; the last tool offered under a name wins. */
export function rememberToolTraits(name: string, traits: HistoryToolTraits): void {
  remembered.set(name, traits);
}

/** The traits of a tool named in history: as last offered in this process, else the built-in default. */
export function historyTraitsOf(name: string): HistoryToolTraits | undefined {
  return remembered.get(name) ?? (Object.hasOwn(BUILTIN_HISTORY_TRAITS, name) ? BUILTIN_HISTORY_TRAITS[name] : undefined);
}
