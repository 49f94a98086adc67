// Valid pi v3 session files for the fuzzer to mutate: trees with branches, every entry type, tool calls,
// compactions and branch summaries. Deterministic for a given random source.
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

export interface CorpusFile {
  /** file bytes */
  data: Buffer;
  /** entry ids in file order (line i+2 holds ids[i]) */
  ids: string[];
}

export function headerLine(id = 'fuzz-session'): string {
  return JSON.stringify({ type: 'session', version: 3, id, timestamp: '2025-01-01T00:00:00.000Z', cwd: '/work' });
}

export function makeSession(random: () => number, count: number): CorpusFile {
  const lines = [headerLine()];
  const ids: string[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let clock = Date.parse('2025-01-01T00:00:00.000Z');
  for (let i = 0; i < count; i++) {
    const id = `${i.toString(16).padStart(6, '0')}${Math.floor(random() * 256).toString(16).padStart(2, '0')}`;
    const parentId = ids.length === 0 ? null : random() < 0.75 ? ids[ids.length - 1]! : pick(ids);
    const base = { id, parentId, timestamp: new Date((clock += 1000)).toISOString() };
    const kind = random();
    let entry: Record<string, unknown>;
    if (kind < 0.3) entry = { type: 'message', ...base, message: { role: 'user', content: `question ${i} ünï ✓`, timestamp: clock } };
    else if (kind < 0.5)
      entry = {
        type: 'message',
        ...base,
        message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }, { type: 'toolCall', id: `call${i}`, name: 'read', arguments: { path: `f${i}.ts` } }], api: 'openai-completions', provider: 'p', model: 'm', usage, stopReason: 'toolUse', timestamp: clock },
      };
    else if (kind < 0.65) entry = { type: 'message', ...base, message: { role: 'toolResult', toolCallId: `call${i - 1}`, toolName: 'read', content: [{ type: 'text', text: 'x'.repeat(Math.floor(random() * 500)) }], isError: false, timestamp: clock } };
    else if (kind < 0.7 && ids.length > 2) entry = { type: 'compaction', ...base, summary: `summary ${i}`, firstKeptEntryId: pick(ids), tokensBefore: 1000 };
    else if (kind < 0.75) entry = { type: 'branch_summary', ...base, fromId: parentId ?? 'root', summary: `branch ${i}` };
    else if (kind < 0.8 && ids.length > 0) entry = { type: 'label', ...base, targetId: pick(ids), label: `label ${i}` };
    else if (kind < 0.85) entry = { type: 'model_change', ...base, provider: 'p', modelId: `m${i}` };
    else if (kind < 0.88) entry = { type: 'thinking_level_change', ...base, thinkingLevel: 'high' };
    else if (kind < 0.92) entry = { type: 'custom', ...base, customType: 'ext', data: { n: i } };
    else if (kind < 0.96) entry = { type: 'custom_message', ...base, customType: 'ext', content: `note ${i}`, display: true };
    else entry = { type: 'session_info', ...base, name: `name ${i}` };
    lines.push(JSON.stringify(entry));
    ids.push(id);
  }
  return { data: Buffer.from(lines.join('\n') + '\n'), ids };
}
