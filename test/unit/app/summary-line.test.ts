import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionEntry } from '../../../src/session/entries';
import { entrySummaryLine } from '../../../src/app/view-model';
import { sessionDisplayTitle } from '../../../src/core/text';

const at = '2025-02-01T09:00:00.000Z';

test('tree labels are plain text: no heading, list or emphasis marks; links as their text', () => {
  const user = { type: 'message', id: 'u', parentId: null, timestamp: at, message: { role: 'user', content: '## Fix **the** `build` in [main.ts](src/main.ts)', timestamp: 1 } } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(user), 'Fix the build in main.ts');
  const reply = { type: 'message', id: 'a', parentId: 'u', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: '- **Done**: tests pass' }], stopReason: 'stop', timestamp: 1 } } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(reply), 'Done: tests pass');
});

test('a compaction or branch summary is named by its first line of content, not its "## Goal" heading', () => {
  const compaction = { type: 'compaction', id: 'c', parentId: 'a', timestamp: at, summary: '## Goal\nCheckout tests for the bookshop.\n\n## Done\nBeta.', firstKeptEntryId: 'u', tokensBefore: 10 } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(compaction), 'Checkout tests for the bookshop.');
  const summary = { type: 'branch_summary', id: 'b', parentId: 'a', timestamp: at, fromId: 'a', summary: '# Branch summary\n\n## Goal\n* Try *approach* Alpha' } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(summary), 'Try approach Alpha');
});

test('a shell command keeps its characters', () => {
  const bash = { type: 'message', id: 'x', parentId: null, timestamp: at, message: { role: 'bashExecution', command: 'ls *.ts **/x', output: '', exitCode: 0, timestamp: 1 } } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(bash), '$ ls *.ts **/x');
});

test('a session titled by its first message shows it as plain text', () => {
  assert.equal(sessionDisplayTitle(undefined, 'Run the tests in `src/checkout.test.ts`\nthanks'), 'Run the tests in src/checkout.test.ts');
  assert.equal(sessionDisplayTitle('My **name**', 'x'), 'My **name**', 'a name the user gave is kept as typed');
});

test('a compaction is named by its goal, shortened, even when its recap is a whole structured summary (issue 25)', () => {
  const structured = '## Goal\nContinue the current task.\n\n## Progress\n### Done\n- [x] Ran `ls`';
  const compaction = {
    type: 'compaction', id: 'c', parentId: 'a', timestamp: at, firstKeptEntryId: 'u', tokensBefore: 10, shortSummary: structured,
    summary: '<summary>\n## Goal\n- [ ] Write a **CSV parser** for the invoices that the accounting team exports every night from the ERP\n\n## Done\nBeta.\n</summary>',
  } as unknown as SessionEntry;
  const line = entrySummaryLine(compaction);
  assert.notEqual(line, 'Goal');
  assert.match(line, /^Write a CSV parser for the invoices that the accounting\b.*…$/);
  assert.ok(line.length <= 60, line);
  const recapOnly = { type: 'compaction', id: 'd', parentId: 'a', timestamp: at, firstKeptEntryId: 'u', tokensBefore: 10, summary: '## Goal\n\n## Done\n', shortSummary: 'We fixed the build.' } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(recapOnly), 'We fixed the build.', 'no goal and no content: the recap names it');
});

test('a handoff document is named by its goal, not its wrapping tag', () => {
  const handoff = {
    type: 'custom_message', id: 'h', parentId: null, timestamp: at, customType: 'handoff', display: true,
    content: '<handoff-context>\n## Goal\nFinish the parser tests\n\n## Next Steps\n1. run them\n</handoff-context>\n\nThis is a handoff document.',
  } as unknown as SessionEntry;
  assert.equal(entrySummaryLine(handoff), 'Finish the parser tests');
});
