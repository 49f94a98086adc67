import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presentEntry, useLocalizer } from '../../../src/vscode/tree/entry-presentation';
import type { SessionEntry } from '../../../src/session/entries';
import { plainMarkdownLine } from '../../../src/core/plain-line';
import { entryTypeOf } from '../../../src/session/entry-types';

const base = { id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' };
const toolResult = {
  ...base,
  type: 'message',
  message: { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'line one\nline two' }], isError: false, timestamp: 0 },
} as SessionEntry;
const compaction = { ...base, type: 'compaction', summary: '## Goal\nShip it', firstKeptEntryId: 'x', tokensBefore: 4200 } as SessionEntry;

test('kinds are English with their placeholders filled when no localizer is set', () => {
  assert.equal(presentEntry(toolResult).kind, 'Tool result: read');
  assert.equal(presentEntry(toolResult).title, 'read: line one');
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

// Issue #28: labels are plain text. Markdown marks come off, a tool call reads "write README.md" (never its
// JSON), and two branch summaries are told apart by their first lines.
const assistant = (id: string, content: unknown[]) => ({ ...base, id, type: 'message', message: { role: 'assistant', content, api: 'openai-completions', provider: 'demo', model: 'arbor-demo', usage: {}, stopReason: 'stop', timestamp: 0 } }) as unknown as SessionEntry;
const branchSummary = (id: string, summary: string) => ({ ...base, id, type: 'branch_summary', fromId: 'x', summary }) as SessionEntry;

test("a reply's label has no Markdown marks and a tool call is its name and target", () => {
  const demo = assistant('a1', [{ type: 'text', text: '*Arbor Demo (offline): a scripted stand-in.*\n\nI\'ll create `hello.txt`.' }]);
  assert.equal(presentEntry(demo).title, 'Arbor Demo (offline): a scripted stand-in.');
  const code = assistant('a2', [{ type: 'text', text: 'Run **`npm test`** in `src/`' }]);
  assert.equal(presentEntry(code).title, 'Run npm test in src/');
  const write = assistant('a3', [{ type: 'toolCall', id: 'c1', name: 'write', arguments: { path: 'README.md', content: 'Hello\n' } }]);
  assert.equal(presentEntry(write).title, 'write README.md');
  const two = assistant('a4', [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'npm test\nnpm run lint' } }, { type: 'toolCall', id: 'c2', name: 'ls', arguments: {} }]);
  assert.equal(presentEntry(two).title, 'bash npm test, ls');
  assert.doesNotMatch(presentEntry(write).title, /[{}"`*]/);
});

test('two branch summaries get different labels, from their first lines', () => {
  const one = presentEntry(branchSummary('b1', '## Goal\nTry a **refactor** of the payment step.\n\n## Progress\n- moved'));
  const two = presentEntry(branchSummary('b2', '## Goal\nAdd the `inventory` report.'));
  assert.equal(one.title, 'Branch summary: Try a refactor of the payment step.');
  assert.equal(two.title, 'Branch summary: Add the inventory report.');
  assert.notEqual(one.title, two.title);
});

test("a search hit's snippet as its label is plain text (search-sessions.ts hitItem)", () => {
  assert.equal(plainMarkdownLine('… the **inventory** keeps `stock` per *title* …'), '… the inventory keeps stock per title …');
});

test('what search matches and shows of a summary or a reply is plain text', () => {
  const summary = branchSummary('b1', '## Goal\nAdd the `stock` report.\n\n## Progress\n- [x] Looked at the **inventory**\n```js\nx()\n```');
  const text = entryTypeOf(summary).searchable(summary as unknown as Record<string, unknown>)?.text ?? '';
  assert.equal(text, 'Goal\nAdd the stock report.\nProgress\n[x] Looked at the inventory\nx()');
  const reply = assistant('a1', [{ type: 'text', text: 'Finished the *stock* report.' }]);
  assert.equal(entryTypeOf(reply).searchable(reply as unknown as Record<string, unknown>)?.text, 'Finished the stock report.');
});

test('a point is named by its label, else by the first words of its title, never by its id', async () => {
  const { pointName } = await import('../../../src/vscode/tree/entry-presentation');
  const reply = assistant('06c0d65b', [{ type: 'text', text: 'The **notes** say gamma.' }]);
  assert.equal(pointName(reply, undefined), 'The notes say gamma.');
  assert.equal(pointName(reply, ' gamma try '), 'gamma try');
  const long = assistant('3a884279', [{ type: 'text', text: 'Refactored the payment provider configuration loader and its tests' }]);
  assert.equal(pointName(long, undefined), 'Refactored the payment…');
});
