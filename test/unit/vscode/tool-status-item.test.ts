// The protocol's `status` on a tool result item is produced from what the session file holds: a denied
// or skipped call reads as such after a reload, not as a plain error (webview/store.ts shows it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversationEntry } from '../../../src/app/view-model';
import type { SessionEntry } from '../../../src/session/entries';
import { toItem } from '../../../src/vscode/chat-items';

function result(details: unknown, isError: boolean): SessionEntry {
  return {
    type: 'message', id: 't1', parentId: 'a1', timestamp: '2025-02-01T09:00:00.000Z',
    message: { role: 'toolResult', toolCallId: 'call1', toolName: 'write', content: [{ type: 'text', text: 'no' }], details, isError, timestamp: 1 },
  } as SessionEntry;
}

test('a stored denied or skipped tool result carries its status to the webview; others leave it to isError', () => {
  const status = (details: unknown, isError: boolean) => {
    const item = toItem(conversationEntry(result(details, isError), undefined)!);
    assert.ok(item?.kind === 'toolResult');
    return item.status;
  };
  assert.equal(status({ denied: true, by: 'user' }, true), 'denied');
  assert.equal(status({ skipped: true }, true), 'skipped');
  assert.equal(status({ path: 'a.txt' }, false), undefined);
  assert.equal(status(undefined, true), undefined);
});
