import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventNotice, NoticeBoard } from '../../../webview/notices';

const texts = (board: NoticeBoard) => board.notices.map((n) => n.text);

test('a compaction progress notice is replaced by its result', () => {
  const board = new NoticeBoard();
  eventNotice(board, { type: 'compaction_start', reason: 'manual', action: 'context-full' });
  assert.deepEqual(texts(board), ['Compacting the conversation (manual)…']);
  eventNotice(board, { type: 'compaction_end', reason: 'manual', ok: true, aborted: false, willRetry: false });
  assert.deepEqual(texts(board), ['Conversation compacted.']);
});

test('a retry notice replaces the previous retry and goes when the turn ends', () => {
  const board = new NoticeBoard();
  eventNotice(board, { type: 'retry', attempt: 1, maxAttempts: 3, delayMs: 1000, errorMessage: 'busy' });
  eventNotice(board, { type: 'retry', attempt: 2, maxAttempts: 3, delayMs: 2000, errorMessage: 'busy' });
  assert.deepEqual(texts(board), ['Retrying (2/3) in 2 s: busy']);
  eventNotice(board, { type: 'idle' });
  assert.deepEqual(texts(board), []);
});

test('notices belong to their session: opening another one clears them, a state update of the same one does not', () => {
  const board = new NoticeBoard();
  board.enterSession('/s/a.jsonl');
  board.add({ level: 'warning', text: 'about session a' });
  assert.equal(board.enterSession('/s/a.jsonl'), false);
  assert.deepEqual(texts(board), ['about session a']);
  assert.equal(board.enterSession('/s/b.jsonl'), true);
  assert.deepEqual(texts(board), []);
});

test('the same error twice is shown once; an error offers the actions the host sent with it', () => {
  const board = new NoticeBoard();
  const actions = [{ kind: 'setApiKey', provider: 'openai' }] as const;
  eventNotice(board, { type: 'error', message: 'No API key for provider "openai".', kind: 'auth', actions: [...actions] });
  eventNotice(board, { type: 'error', message: 'No API key for provider "openai".', kind: 'auth', actions: [...actions] });
  assert.deepEqual(board.notices.map((n) => [n.level, n.actions]), [['error', actions]]);
});

test('"Conversation compacted." goes when the next turn starts; an error stays', () => {
  const board = new NoticeBoard();
  eventNotice(board, { type: 'error', message: 'The key was refused.' });
  eventNotice(board, { type: 'compaction_start', reason: 'manual', action: 'context-full' });
  eventNotice(board, { type: 'compaction_end', reason: 'manual', ok: true, aborted: false, willRetry: false });
  assert.deepEqual(texts(board), ['The key was refused.', 'Conversation compacted.']);
  eventNotice(board, { type: 'idle' });
  assert.deepEqual(texts(board), ['The key was refused.', 'Conversation compacted.'], 'still there until a turn starts');
  eventNotice(board, { type: 'busy' });
  assert.deepEqual(texts(board), ['The key was refused.']);
});
