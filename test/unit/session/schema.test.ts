// The hand-written hot-path validator and the zod schemas must accept and reject the same entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryProblem, entrySchemaFor } from '../../../src/session/schema';
import { assistant, user } from './helpers';

const base = { id: 'abcd1234', parentId: null, timestamp: '2025-01-01T00:00:00.000Z' };
const valid: Record<string, unknown>[] = [
  { ...base, type: 'message', message: user('x') },
  { ...base, type: 'message', message: assistant('x') },
  { ...base, type: 'message', message: { role: 'toolResult', toolCallId: 'a', toolName: 'b', content: [], isError: false, timestamp: 1 } },
  { ...base, type: 'message', message: { role: 'bashExecution', command: 'ls', output: '', exitCode: 0, cancelled: false, truncated: false, timestamp: 1 } },
  { ...base, type: 'message', message: { role: 'fileMention', anything: 1 } },
  { ...base, type: 'thinking_level_change', thinkingLevel: 'high' },
  { ...base, type: 'model_change', provider: 'p', modelId: 'm' },
  { ...base, type: 'compaction', summary: 's', firstKeptEntryId: 'x', tokensBefore: 1, extra: true },
  { ...base, type: 'branch_summary', fromId: 'root', summary: '' },
  { ...base, type: 'custom', customType: 'c' },
  { ...base, type: 'custom_message', customType: 'c', content: [{ type: 'text', text: 'x' }], display: true },
  { ...base, type: 'label', targetId: 't' },
  { ...base, type: 'session_info' },
  { ...base, type: 'service_tier_change', serviceTier: 'x' },
];

function mutations(entry: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const key of Object.keys(entry)) {
    for (const bad of [undefined, 42, 'str', null, [], {}]) out.push({ ...entry, [key]: bad });
  }
  if (typeof entry.message === 'object') {
    const message = entry.message as Record<string, unknown>;
    for (const key of Object.keys(message)) for (const bad of [undefined, 7, 'q', [{ no: 'type' }]]) out.push({ ...entry, message: { ...message, [key]: bad } });
  }
  return out;
}

test('valid entries pass both validators', () => {
  for (const entry of valid) {
    assert.equal(entryProblem(entry), undefined, JSON.stringify(entry));
    assert.ok(entrySchemaFor(entry.type).safeParse(entry).success, JSON.stringify(entry));
  }
});

test('fast validator and zod agree on hundreds of mutated entries', () => {
  let rejected = 0;
  for (const entry of valid) {
    for (const candidate of mutations(entry)) {
      const fast = entryProblem(candidate) === undefined;
      const zod = entrySchemaFor(candidate.type).safeParse(candidate).success;
      assert.equal(fast, zod, JSON.stringify(candidate));
      if (!fast) rejected++;
    }
  }
  assert.ok(rejected > 100);
});
