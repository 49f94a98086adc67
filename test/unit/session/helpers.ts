// Builders for session entries used across the session tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage, type AgentMessage, type AssistantMessage } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';

let clock = Date.parse('2025-01-01T00:00:00.000Z');
export function nextTimestamp(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export function user(text: string, timestamp = 1): AgentMessage {
  return { role: 'user', content: text, timestamp };
}

export function assistant(text: string, provider = 'prov', model = 'model-a'): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }],
    api: 'openai-completions',
    provider,
    model,
    usage: emptyUsage(),
    stopReason: 'stop',
    timestamp: 2,
  };
}

export function msg(id: string, parentId: string | null, message: AgentMessage): SessionEntry {
  return { type: 'message', id, parentId, timestamp: nextTimestamp(), message };
}

export function compaction(id: string, parentId: string | null, firstKeptEntryId: string, summary = `summary ${id}`): SessionEntry {
  return { type: 'compaction', id, parentId, timestamp: nextTimestamp(), summary, firstKeptEntryId, tokensBefore: 1000 };
}

export function branchSummary(id: string, parentId: string | null, summary: string): SessionEntry {
  return { type: 'branch_summary', id, parentId, timestamp: nextTimestamp(), fromId: parentId ?? 'root', summary };
}

export function header(version: number | undefined = 3, id = 'sess-1'): Record<string, unknown> {
  const h: Record<string, unknown> = { type: 'session', id, timestamp: '2025-01-01T00:00:00.000Z', cwd: '/work' };
  if (version !== undefined) h.version = version;
  return h;
}

export function jsonl(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + '\n';
}

/** Text of every message (for compact assertions). */
export function texts(messages: readonly AgentMessage[]): string[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'user':
      case 'custom':
        return typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join('');
      case 'assistant':
        return m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      case 'compactionSummary':
        return `[C:${m.summary}]`;
      case 'branchSummary':
        return `[B:${m.summary}]`;
      default:
        return `[${m.role}]`;
    }
  });
}

export function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-session-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
