import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presentEntry, useLocalizer } from '../../../src/vscode/tree/entry-presentation';
import type { SessionEntry } from '../../../src/session/entries';

const base = { id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' };
const toolResult = {
  ...base,
  type: 'message',
  message: { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'line one\nline two' }], isError: false, timestamp: 0 },
} as SessionEntry;
const compaction = { ...base, type: 'compaction', summary: '## Goal\nShip it', firstKeptEntryId: 'x', tokensBefore: 4200 } as SessionEntry;

test('kinds are English with their placeholders filled when no localizer is set', () => {
  assert.equal(presentEntry(toolResult).kind, 'Tool result: read');
  assert.equal(presentEntry(toolResult).title, 'line one');
  assert.equal(presentEntry(compaction).kind, 'Compaction summary (4200 tokens before)');
});

test('a localizer receives the message and its arguments', () => {
  const seen: string[] = [];
  useLocalizer((message, ...args) => {
    seen.push(message);
    return `[${message}|${args.join(',')}]`;
  });
  try {
    assert.equal(presentEntry(toolResult).kind, '[Tool result: {0}|read]');
    assert.ok(seen.includes('Tool result: {0}'));
  } finally {
    useLocalizer((message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)] ?? '')));
  }
});
