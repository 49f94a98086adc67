import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationEntry } from '../../../src/app/view-model';
import { toItem } from '../../../src/vscode/chat-items';

const summary = '## Goal\nShip it.\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nREADME.md\nhello.txt\n</modified-files>';

function entry(kind: 'compaction' | 'branch_summary', lists: boolean): ConversationEntry {
  return {
    id: 'e1', parentId: 'p', kind, text: summary, timestamp: '2025-02-01T09:00:00.000Z', blocks: [], fromId: 'p', firstKeptEntryId: 'p', tokensBefore: 1,
    ...(lists ? { readFiles: ['src/a.ts'], modifiedFiles: ['README.md', 'hello.txt'] } : {}),
  } as unknown as ConversationEntry;
}

test('a summary shown with its file lists does not also show the raw <read-files>/<modified-files> blocks', () => {
  for (const kind of ['compaction', 'branch_summary'] as const) {
    const item = toItem(entry(kind, true));
    assert.ok(item && (item.kind === 'compaction' || item.kind === 'branch_summary'));
    assert.equal(item.summary, '## Goal\nShip it.', kind);
    assert.deepEqual(item.modifiedFiles, ['README.md', 'hello.txt']);
  }
});

test('without file lists the blocks stay: they are the only place the files are named', () => {
  const item = toItem(entry('branch_summary', false));
  assert.ok(item?.kind === 'branch_summary');
  assert.match(item.summary, /<modified-files>/);
});
