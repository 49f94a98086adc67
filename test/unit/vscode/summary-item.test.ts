// A summary's marker shows its file lists apart, so its Markdown drops the <read-files>/<modified-files>
// blocks the summary carries (src/present/entry-views.ts shownSummary); built from entries as the chat is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversationEntry } from '../../../src/app/view-model';
import type { SessionEntry } from '../../../src/session/entries';
import { toItem } from '../../../src/vscode/chat-items';
import { viewText } from '../../../src/present/view-text';

const summary = '## Goal\nShip it.\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nREADME.md\nhello.txt\n</modified-files>';

function entry(type: 'compaction' | 'branch_summary', lists: boolean): SessionEntry {
  const details = lists ? { readFiles: ['src/a.ts'], modifiedFiles: ['README.md', 'hello.txt'] } : {};
  const base = { id: 'e1', parentId: 'p', timestamp: '2025-02-01T09:00:00.000Z', summary, details };
  return (type === 'compaction' ? { type, ...base, firstKeptEntryId: 'p', tokensBefore: 1 } : { type, ...base, fromId: 'p' }) as SessionEntry;
}

test('a summary shown with its file lists does not also show the raw <read-files>/<modified-files> blocks', () => {
  for (const kind of ['compaction', 'branch_summary'] as const) {
    const view = conversationEntry(entry(kind, true))!;
    const item = toItem(view);
    assert.ok(item.kind === 'compaction' || item.kind === 'branch_summary');
    assert.equal(item.summary, '## Goal\nShip it.', kind);
    assert.deepEqual(item.modifiedFiles, ['README.md', 'hello.txt']);
    // the original messages' document gives the summary back as stored
    assert.equal(viewText(view), summary, kind);
  }
});

test('without file lists the blocks stay: they are the only place the files are named', () => {
  const item = toItem(conversationEntry(entry('branch_summary', false))!);
  assert.ok(item.kind === 'branch_summary');
  assert.match(item.summary, /<modified-files>/);
});
