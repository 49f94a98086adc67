// A real SessionStore in a temp folder plus builders that append at any position, for branch tests.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage, type AssistantMessage, type ToolCall } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';
import type { LeafMemory } from '../../../src/session/leaf-memory';
import { SessionStore } from '../../../src/session/store';
export { seededRandom as rng } from '../seeded-random';

export function chars(tokens: number, fill = 'x'): string {
  return fill.repeat(tokens * 4);
}

export function call(name: string, args: Record<string, unknown>, id = `call-${name}-${String(args.path ?? '')}`): ToolCall {
  return { type: 'toolCall', id, name, arguments: args };
}

export function assistantMessage(text: string, calls: ToolCall[] = []): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  if (text) content.push({ type: 'text', text });
  content.push(...calls);
  return {
    role: 'assistant', content, api: 'openai-completions', provider: 'fake', model: 'fake-1',
    usage: emptyUsage(), stopReason: calls.length > 0 ? 'toolUse' : 'stop', timestamp: 2,
  };
}

/** Builds on a real store; `at(parent)` positions the next append (null = new root). */
export class TreeSession {
  private constructor(readonly store: SessionStore, readonly dir: string) {}

  static async create(leafMemory?: LeafMemory): Promise<TreeSession> {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-branch-'));
    const store = await SessionStore.create({ dir, cwd: dir, ...(leafMemory ? { leafMemory } : {}) });
    return new TreeSession(store, dir);
  }

  at(parentId: string | null): this {
    if (parentId === null) this.store.resetLeaf();
    else this.store.branch(parentId);
    return this;
  }

  async user(text: string): Promise<string> {
    return (await this.store.appendMessage({ role: 'user', content: text, timestamp: 1 })).id;
  }

  async assistant(text: string, calls: ToolCall[] = []): Promise<string> {
    return (await this.store.appendMessage(assistantMessage(text, calls))).id;
  }

  async toolResult(text: string, toolCallId = 'c'): Promise<string> {
    return (
      await this.store.appendMessage({ role: 'toolResult', toolCallId, toolName: 'read', content: [{ type: 'text', text }], isError: false, timestamp: 3 })
    ).id;
  }

  async compaction(summary: string, firstKeptEntryId: string, details?: unknown, fromHook?: boolean): Promise<string> {
    return (await this.store.appendCompaction({ summary, firstKeptEntryId, tokensBefore: 1000, details, ...(fromHook ? { fromHook } : {}) })).id;
  }

  /** a branch_summary appended at the current leaf */
  async summary(text: string, details?: unknown, fromHook?: boolean): Promise<string> {
    return (await this.store.branchWithSummary(this.store.getLeafId(), text, details, fromHook)).id;
  }

  async custom(text: string): Promise<string> {
    return (await this.store.appendCustomMessage('note', text, true)).id;
  }

  async bytes(): Promise<Buffer> {
    return readFile(this.store.file);
  }

  async reopen(leafMemory?: LeafMemory): Promise<SessionStore> {
    return SessionStore.open(this.store.file, leafMemory ? { leafMemory } : {});
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Independent oracle: the ancestors of `id` (itself first) from the entries' parent ids. */
export function ancestorsOf(entries: readonly SessionEntry[], id: string | null): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  let current = id === null ? undefined : byId.get(id);
  while (current && !out.includes(current.id)) {
    out.push(current.id);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return out;
}

