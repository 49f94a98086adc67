import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializeConversation, truncateToolOutput } from '../../../src/compaction/serialize';
import {
  addFileOpsFromDetails,
  addFileOpsFromMessage,
  computeFileLists,
  createFileOps,
  formatFileOperations,
  stripFileOperations,
  upsertFileOperations,
} from '../../../src/compaction/file-ops';
import { checkFileTags, checkSummarySections } from '../../../src/compaction/guard';
import { emptyUsage } from '../../../src/core/messages';
import { wellFormedSummary } from './fixtures';

test('tool results are cut to 2000 characters with the truncation note', () => {
  const long = 'y'.repeat(2500);
  assert.equal(truncateToolOutput(long), `${'y'.repeat(2000)}\n\n[... 500 more characters truncated]`);
  assert.equal(truncateToolOutput('short'), 'short');
  const text = serializeConversation([
    { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: ' there' }], timestamp: 0 },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm' },
        { type: 'text', text: 'ok' },
        { type: 'toolCall', id: '1', name: 'read', arguments: { path: 'a.ts', limit: 5 } },
        { type: 'toolCall', id: '2', name: 'bash', arguments: { command: 'ls' } },
      ],
      api: 'x', provider: 'p', model: 'm', usage: emptyUsage(), stopReason: 'toolUse', timestamp: 0,
    },
    { role: 'toolResult', toolCallId: '1', toolName: 'read', content: [{ type: 'text', text: long }], isError: false, timestamp: 0 },
  ]);
  assert.equal(
    text,
    [
      '[User]: hi there',
      '[Assistant thinking]: hmm',
      '[Assistant]: ok',
      '[Assistant tool calls]: read(path="a.ts", limit=5); bash(command="ls")',
      `[Tool result]: ${'y'.repeat(2000)}\n\n[... 500 more characters truncated]`,
    ].join('\n\n'),
  );
});

test('file ops: read/write/edit paths, readFiles exclude modified, sorted, cumulative from trusted details', () => {
  const ops = createFileOps();
  addFileOpsFromDetails(ops, { readFiles: ['z.ts', 'm.ts'], modifiedFiles: ['old.ts'] }, false);
  addFileOpsFromDetails(ops, { readFiles: ['hook.ts'] }, true);
  addFileOpsFromMessage(ops, {
    role: 'assistant',
    content: [
      { type: 'toolCall', id: '1', name: 'read', arguments: { path: 'b.ts' } },
      { type: 'toolCall', id: '2', name: 'edit', arguments: { path: 'm.ts' } },
      { type: 'toolCall', id: '3', name: 'write', arguments: { path: 'a.ts' } },
      { type: 'toolCall', id: '4', name: 'bash', arguments: { path: 'ignored.ts' } },
      { type: 'toolCall', id: '5', name: 'read', arguments: { file_path: 'ignored2.ts' } },
    ],
    api: 'x', provider: 'p', model: 'm', usage: emptyUsage(), stopReason: 'toolUse', timestamp: 0,
  });
  const lists = computeFileLists(ops);
  assert.deepEqual(lists, { readFiles: ['b.ts', 'z.ts'], modifiedFiles: ['a.ts', 'm.ts', 'old.ts'] });
  assert.equal(
    formatFileOperations(lists),
    '\n\n<read-files>\nb.ts\nz.ts\n</read-files>\n\n<modified-files>\na.ts\nm.ts\nold.ts\n</modified-files>',
  );
  assert.equal(formatFileOperations({ readFiles: [], modifiedFiles: [] }), '');
});

test('upsert replaces old file blocks instead of stacking them', () => {
  const once = upsertFileOperations('## Goal\nx', { readFiles: ['a'], modifiedFiles: ['b'] });
  const twice = upsertFileOperations(once, { readFiles: ['c'], modifiedFiles: [] });
  assert.equal(twice, '## Goal\nx\n\n<read-files>\nc\n</read-files>');
  assert.equal(stripFileOperations(once), '## Goal\nx');
});

test('guard: all required sections present, or the missing ones named; file tags checked', () => {
  assert.deepEqual(checkSummarySections(wellFormedSummary()), []);
  const broken = wellFormedSummary().replace('## Key Decisions', 'Key decisions:').replace('## Goal', '# Goal');
  assert.deepEqual(checkSummarySections(broken), ['missing sections ## Goal, ## Key Decisions']);
  assert.deepEqual(checkSummarySections('  '), ['the answer was empty']);
  assert.deepEqual(checkFileTags('x', { readFiles: ['a'], modifiedFiles: [] }), ['missing <read-files>']);
  assert.deepEqual(checkFileTags('x\n<read-files>\na\n</read-files>', { readFiles: ['a'], modifiedFiles: [] }), []);
});
