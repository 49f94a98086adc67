// `stats FILE [--json]`: entries by type, messages by role, branches, compactions, estimated tokens.
import { convertToLlm } from '../../session/convert';
import type { SessionStore } from '../../session/store';
import { openForCli, parseCommandArgs, type CliCommand } from '../command';

export interface SessionStats {
  entries: number;
  byType: Record<string, number>;
  messagesByRole: Record<string, number>;
  /** tips of the tree (1 for a linear conversation) */
  branches: number;
  /** entries with more than one child */
  branchPoints: number;
  roots: number;
  compactions: number;
  branchSummaries: number;
  labels: number;
  /** characters / 4 over every message entry in the file */
  estimatedTokensAll: number;
  /** characters / 4 over the active leaf's LLM context */
  estimatedTokensContext: number;
  leafId: string | null;
  name: string | null;
}

export function computeStats(store: SessionStore): SessionStats {
  // no prototype: entry types and roles named `constructor` or `__proto__` are plain keys here
  const byType: Record<string, number> = Object.create(null) as Record<string, number>;
  const messagesByRole: Record<string, number> = Object.create(null) as Record<string, number>;
  const childCount = new Map<string, number>();
  let chars = 0;
  let roots = 0;
  for (const entry of store.getEntries()) {
    byType[entry.type] = (byType[entry.type] ?? 0) + 1;
    if (entry.type === 'message') {
      const role = (entry.message as { role?: string }).role ?? '?';
      messagesByRole[role] = (messagesByRole[role] ?? 0) + 1;
      chars += JSON.stringify(entry.message).length;
    }
    if (store.isRoot(entry)) roots++;
    else childCount.set(entry.parentId!, (childCount.get(entry.parentId!) ?? 0) + 1);
  }
  let branchPoints = 0;
  for (const count of childCount.values()) if (count > 1) branchPoints++;
  const entries = store.entryCount;
  const context = convertToLlm(store.buildContext().messages);
  return {
    entries,
    byType,
    messagesByRole,
    branches: entries - childCount.size,
    branchPoints,
    roots,
    compactions: byType.compaction ?? 0,
    branchSummaries: byType.branch_summary ?? 0,
    labels: byType.label ?? 0,
    estimatedTokensAll: Math.ceil(chars / 4),
    estimatedTokensContext: Math.ceil(JSON.stringify(context).length / 4),
    leafId: store.getLeafId(),
    name: store.getSessionName() ?? null,
  };
}

export const statsCommand: CliCommand = {
  usage: 'stats FILE [--json]',
  summary: 'entries by type, branches, compactions, estimated tokens',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(args, { json: { type: 'boolean' } }, ['FILE']);
    const store = await openForCli(positionals[0]!, io);
    const stats = computeStats(store);
    if (values.json) {
      io.out(JSON.stringify(stats));
      return 0;
    }
    const lines = [
      `file:        ${store.file}`,
      `name:        ${stats.name ?? '(none)'}`,
      `entries:     ${stats.entries}`,
      ...Object.entries(stats.byType).map(([type, n]) => `  ${type.padEnd(22)} ${n}`),
      `messages by role:`,
      ...Object.entries(stats.messagesByRole).map(([role, n]) => `  ${role.padEnd(22)} ${n}`),
      `branches:    ${stats.branches} (branch points ${stats.branchPoints}, roots ${stats.roots})`,
      `compactions: ${stats.compactions}`,
      `branch summaries: ${stats.branchSummaries}`,
      `labels:      ${stats.labels}`,
      `estimated tokens (chars/4): all messages ${stats.estimatedTokensAll}, active context ${stats.estimatedTokensContext}`,
      `leaf:        ${stats.leafId ?? '(none)'}`,
    ];
    io.out(lines.join('\n'));
    return 0;
  },
};
