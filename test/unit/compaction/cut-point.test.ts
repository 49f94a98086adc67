import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCutPoint } from '../../../src/compaction/cut-point';
import { isCutPoint } from '../../../src/compaction/entry-messages';
import { PathBuilder, chars } from './fixtures';
import { randomPath } from './random-paths';

test("pi's worked example: huge old tool result → split turn, nothing before it, prefix = whole early turn", () => {
  const b = new PathBuilder();
  const call = b.toolCall('bash', { command: 'make' });
  b.user('build it'); // 0
  b.assistant('', [call]); // 1
  b.toolResult(chars(1000)); // 2
  b.assistant(chars(15)); // 3
  b.user(chars(10)); // 4
  b.assistant(chars(10)); // 5
  b.modelChange(); // 6
  b.label('e5', 'x'); // 7
  b.user(chars(5)); // 8
  b.assistant(chars(10), [b.toolCall('read', { path: 'a' })]); // 9
  b.toolResult(chars(3)); // 10
  b.user(chars(5)); // 11
  b.customMessage(chars(1)); // 12
  b.assistant(chars(9)); // 13
  const cut = findCutPoint(b.entries, 0, b.entries.length, 500);
  assert.deepEqual(cut, { firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
});

test('quirk (a) fixed: a cut on a user message preceded by metadata is not a split turn', () => {
  const b = new PathBuilder();
  b.user(chars(100)); // 0
  b.assistant(chars(100)); // 1
  b.modelChange(); // 2
  b.label('e1', 'checkpoint'); // 3
  b.user(chars(300)); // 4
  b.assistant(chars(300)); // 5
  const cut = findCutPoint(b.entries, 0, b.entries.length, 500);
  // pi would report a split turn starting at index 0 here.
  assert.deepEqual(cut, { firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
});

test('quirk (b) fixed: oversized trailing tool results keep the newest step and summarize the rest (the turn is split)', () => {
  const b = new PathBuilder();
  b.user(chars(6000)); // 0
  b.assistant(chars(10)); // 1
  b.user(chars(10)); // 2
  b.assistant('', [b.toolCall('bash', { command: 'cat big' })]); // 3
  b.toolResult(chars(25000)); // 4
  const cut = findCutPoint(b.entries, 0, b.entries.length, 20000);
  // pi: firstKeptEntryIndex 0 (summarize nothing).
  assert.deepEqual(cut, { firstKeptEntryIndex: 3, turnStartIndex: 2, isSplitTurn: true });
});

test('a turn that alone fills the window is split: only its newest step is kept, its earlier steps are summarized', () => {
  const b = new PathBuilder();
  b.user(chars(50)); // 0
  b.assistant(chars(50)); // 1
  b.user('refactor everything'); // 2: the current turn starts here
  for (let step = 0; step < 30; step++) {
    b.assistant('', [b.toolCall('bash', {})]);
    b.toolResult(chars(4000));
  }
  const newest = b.entries.length;
  b.assistant('', [b.toolCall('bash', { command: 'cat huge.log' })]);
  b.toolResult(chars(25000));
  const cut = findCutPoint(b.entries, 0, b.entries.length, 20000);
  // Keeping the whole current turn (145k tokens) would overflow the retry again.
  assert.deepEqual(cut, { firstKeptEntryIndex: newest, turnStartIndex: 2, isSplitTurn: true });
});

test('quirk (b), single turn: keeps the newest assistant step and splits the turn', () => {
  const b = new PathBuilder();
  b.user(chars(10)); // 0
  b.assistant('', [b.toolCall('bash', {})]); // 1
  b.toolResult(chars(10)); // 2
  b.assistant('', [b.toolCall('bash', {})]); // 3
  b.toolResult(chars(25000)); // 4
  const cut = findCutPoint(b.entries, 0, b.entries.length, 20000);
  assert.deepEqual(cut, { firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
});

test('quirk (c): never cuts at a tool result; cutting at an assistant keeps its results', () => {
  const b = new PathBuilder();
  b.user(chars(10)); // 0
  b.assistant('', [b.toolCall('bash', {})]); // 1
  b.toolResult(chars(300)); // 2
  b.toolResult(chars(300)); // 3
  b.assistant(chars(10)); // 4
  const cut = findCutPoint(b.entries, 0, b.entries.length, 500);
  assert.equal(cut.firstKeptEntryIndex, 4);
  assert.equal(cut.isSplitTurn, true);
  const keepMore = findCutPoint(b.entries, 0, b.entries.length, 611); // crossed at the assistant (index 1)
  assert.equal(keepMore.firstKeptEntryIndex, 1, 'the assistant before the results, never index 2 or 3');
});

test('everything fits: keep from the first cut point; no cut points: keep from the start', () => {
  const b = new PathBuilder();
  b.user(chars(10));
  b.assistant(chars(10));
  assert.deepEqual(findCutPoint(b.entries, 0, 2, 500), { firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
  const meta = new PathBuilder();
  meta.modelChange();
  meta.modelChange();
  assert.deepEqual(findCutPoint(meta.entries, 0, 2, 1), { firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
});

test('cut on a custom_message or bash execution starts a turn (not split)', () => {
  const b = new PathBuilder();
  b.user(chars(400));
  b.assistant(chars(400));
  b.customMessage(chars(300));
  b.assistant(chars(300));
  const cut = findCutPoint(b.entries, 0, b.entries.length, 500);
  assert.deepEqual(cut, { firstKeptEntryIndex: 2, turnStartIndex: -1, isSplitTurn: false });
});

test('property: on random paths the cut is a valid cut point, after a turn start when split, and only metadata is pulled back', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const b = randomPath(seed, 3 + (seed % 12));
    const keep = 200 + ((seed * 7919) % 8000);
    const cut = findCutPoint(b.entries, 0, b.entries.length, keep);
    const kept = b.entries[cut.firstKeptEntryIndex]!;
    const role = kept.type === 'message' ? (kept as { message: { role: string } }).message.role : undefined;
    assert.notEqual(role, 'toolResult', `seed ${seed}: cut at a tool result`);
    // The first non-metadata entry of the kept part is a valid cut point.
    let i = cut.firstKeptEntryIndex;
    while (i < b.entries.length && !isCutPoint(b.entries[i]!) && b.entries[i]!.type !== 'message') i++;
    if (i < b.entries.length) assert.ok(isCutPoint(b.entries[i]!), `seed ${seed}: kept part starts mid-turn at a tool result`);
    if (cut.isSplitTurn) assert.ok(cut.turnStartIndex < cut.firstKeptEntryIndex, `seed ${seed}: turn start after cut`);
  }
});
