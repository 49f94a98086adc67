// Hand-built session entries for compaction tests. Token sizes are controlled through text length:
// with the chars/4 estimator, `chars(n)` costs exactly n tokens.
import type { AgentMessage, AssistantMessage, ToolCall, Usage } from '../../../src/core/messages';
import { emptyUsage } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';

export function chars(tokens: number, fill = 'x'): string {
  return fill.repeat(tokens * 4);
}

export class PathBuilder {
  readonly entries: SessionEntry[] = [];
  private n = 0;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  private base(type: string): { type: string; id: string; parentId: string | null; timestamp: string } {
    const parentId = this.entries.length > 0 ? this.entries[this.entries.length - 1]!.id : null;
    this.clock += 1000;
    return { type, id: `e${this.n++}`, parentId, timestamp: new Date(this.clock).toISOString() };
  }

  message(message: AgentMessage): string {
    const entry = { ...this.base('message'), message } as SessionEntry;
    this.entries.push(entry);
    return entry.id;
  }

  user(text: string): string {
    return this.message({ role: 'user', content: text, timestamp: this.clock });
  }

  assistant(text: string, calls: ToolCall[] = [], usage?: Partial<Usage>): string {
    const content: AssistantMessage['content'] = [];
    if (text) content.push({ type: 'text', text });
    content.push(...calls);
    return this.message({
      role: 'assistant',
      content,
      api: 'openai-completions',
      provider: 'fake',
      model: 'fake-1',
      usage: { ...emptyUsage(), ...usage },
      stopReason: calls.length > 0 ? 'toolUse' : 'stop',
      timestamp: this.clock,
    });
  }

  toolCall(name: string, args: Record<string, unknown>, id = `call${this.n}`): ToolCall {
    return { type: 'toolCall', id, name, arguments: args };
  }

  toolResult(text: string, toolName = 'bash', toolCallId = 'c'): string {
    return this.message({ role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: false, timestamp: this.clock });
  }

  bash(command: string, output: string): string {
    return this.message({
      role: 'bashExecution',
      command,
      output,
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: this.clock,
    });
  }

  modelChange(): string {
    const entry = { ...this.base('model_change'), provider: 'fake', modelId: 'fake-2' } as SessionEntry;
    this.entries.push(entry);
    return entry.id;
  }

  label(targetId: string, label: string): string {
    const entry = { ...this.base('label'), targetId, label } as SessionEntry;
    this.entries.push(entry);
    return entry.id;
  }

  customMessage(text: string): string {
    const entry = { ...this.base('custom_message'), customType: 'note', content: text, display: true } as SessionEntry;
    this.entries.push(entry);
    return entry.id;
  }

  branchSummary(summary: string): string {
    const entry = { ...this.base('branch_summary'), fromId: 'root', summary } as SessionEntry;
    this.entries.push(entry);
    return entry.id;
  }

  compaction(summary: string, firstKeptEntryId: string, details?: unknown, fromHook?: boolean): string {
    const entry = { ...this.base('compaction'), summary, firstKeptEntryId, tokensBefore: 1234 } as SessionEntry;
    if (details !== undefined) (entry as Record<string, unknown>).details = details;
    if (fromHook !== undefined) (entry as Record<string, unknown>).fromHook = fromHook;
    this.entries.push(entry);
    return entry.id;
  }

  index(id: string): number {
    return this.entries.findIndex((e) => e.id === id);
  }
}

/** A well-formed checkpoint, as a compliant model would write it. */
export function wellFormedSummary(tag = 'S'): string {
  return [
    `## Goal\n${tag} goal`,
    '## Constraints & Preferences\n- (none)',
    '## Progress\n### Done\n- [x] thing\n### In Progress\n- [ ] other\n### Blocked\n- (none)',
    '## Key Decisions\n- **A**: because',
    '## Next Steps\n1. next',
    '## Critical Context\n- (none)',
  ].join('\n\n');
}
