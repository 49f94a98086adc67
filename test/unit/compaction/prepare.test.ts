import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { compactionMessageOf } from '../../../src/compaction/entry-messages';
import { computeFileLists } from '../../../src/compaction/file-ops';
import { PathBuilder, chars } from './fixtures';
import { randomPath } from './random-paths';

const settings = (keepRecentTokens: number) => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens });

test('splits history, turn prefix and kept part; ids and messages line up', () => {
  const b = new PathBuilder();
  const u0 = b.user(chars(400));
  const a1 = b.assistant(chars(400), [b.toolCall('read', { path: 'src/a.ts' })]);
  const t2 = b.toolResult(chars(10), 'read');
  const u3 = b.user(chars(10));
  const a4 = b.assistant('', [b.toolCall('edit', { path: 'src/b.ts' })]);
  const t5 = b.toolResult(chars(400));
  const a6 = b.assistant(chars(300));
  const prep = prepareCompaction(b.entries, settings(300))!;
  assert.equal(prep.firstKeptEntryId, a6);
  assert.equal(prep.isSplitTurn, true);
  assert.equal(prep.turnStartEntryId, u3);
  assert.deepEqual(prep.summarizeEntryIds, [u0, a1, t2]);
  assert.deepEqual(prep.turnPrefixEntryIds, [u3, a4, t5]);
  assert.deepEqual(prep.keptEntryIds, [a6]);
  assert.equal(prep.messagesToSummarize.length, 3);
  assert.equal(prep.previousSummary, undefined);
  assert.deepEqual(computeFileLists(prep.fileOps), { readFiles: ['src/a.ts'], modifiedFiles: ['src/b.ts'] });
  assert.ok(prep.tokensBefore > 1500);
});

test('returns undefined when the newest entry is a compaction or when everything fits', () => {
  const b = new PathBuilder();
  const u = b.user(chars(10));
  b.assistant(chars(10));
  assert.equal(prepareCompaction(b.entries, settings(20000)), undefined, 'nothing to summarize');
  b.compaction('old', u);
  assert.equal(prepareCompaction(b.entries, settings(1)), undefined, 'already compacted');
  assert.equal(prepareCompaction([], settings(1)), undefined);
});

test('second compaction starts at the previous firstKeptEntryId and passes the previous summary', () => {
  const b = new PathBuilder();
  b.user(chars(500));
  b.assistant(chars(500));
  const keptU = b.user(chars(500));
  const keptA = b.assistant(chars(500), [b.toolCall('write', { path: 'new.ts' })]);
  b.compaction('PREVIOUS', keptU, { readFiles: ['old-read.ts'], modifiedFiles: ['old-mod.ts'] });
  const u2 = b.user(chars(500));
  b.assistant(chars(500));
  const prep = prepareCompaction(b.entries, settings(600))!;
  assert.equal(prep.previousSummary, 'PREVIOUS');
  assert.deepEqual(prep.summarizeEntryIds.slice(0, 2), [keptU, keptA], 'what the first compaction kept is re-summarized');
  assert.equal(prep.firstKeptEntryId, u2);
  assert.deepEqual(computeFileLists(prep.fileOps), { readFiles: ['old-read.ts'], modifiedFiles: ['new.ts', 'old-mod.ts'] });
});

test('details of a hook-provided previous compaction are ignored', () => {
  const b = new PathBuilder();
  const u = b.user(chars(500));
  b.compaction('HOOK', u, { readFiles: ['evil.ts'], modifiedFiles: [] }, true);
  b.user(chars(500));
  b.assistant(chars(500));
  const prep = prepareCompaction(b.entries, settings(400))!;
  assert.deepEqual(computeFileLists(prep.fileOps).readFiles, []);
});

test('keepRecentTokens is rescaled by the measured usage/estimate ratio', () => {
  const build = (reported: number) => {
    const b = new PathBuilder();
    for (let i = 0; i < 10; i++) {
      b.user(chars(1000));
      b.assistant(chars(1000), [], i === 9 ? { input: reported - 10, output: 10, totalTokens: reported } : {});
    }
    return b;
  };
  // Estimate of the whole context: 20,000 tokens. keep = 4000.
  const exact = prepareCompaction(build(20_000).entries, settings(4000))!;
  const doubled = prepareCompaction(build(40_000).entries, settings(4000))!;
  assert.equal(exact.effectiveKeepRecentTokens, 4000);
  assert.equal(doubled.effectiveKeepRecentTokens, 2000, 'real tokens are 2× the estimate: keep half the estimate');
  assert.equal(doubled.keptEntryIds.length, 2);
  assert.equal(exact.keptEntryIds.length, 4);
  assert.equal(doubled.tokensBefore, 40_000);
});

test('usage reported before the latest compaction is not trusted', () => {
  const b = new PathBuilder();
  b.user(chars(1000));
  const a = b.assistant(chars(1000), [], { totalTokens: 900_000 });
  b.compaction('S', a);
  b.user(chars(1000));
  b.assistant(chars(1000));
  const prep = prepareCompaction(b.entries, settings(1500))!;
  assert.ok(prep.tokensBefore < 10_000, `tokensBefore ${prep.tokensBefore} must be an estimate, not stale usage`);
  assert.equal(prep.effectiveKeepRecentTokens, 1500);
});

function messageIds(entries: PathBuilder['entries'], from = 0): string[] {
  return entries.slice(from).filter((e) => compactionMessageOf(e) !== undefined).map((e) => e.id);
}

test('property: every path message is summarized, in the turn prefix, or kept — exactly once, in order', () => {
  let prepared = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const b = randomPath(seed, 4 + (seed % 15));
    const prep = prepareCompaction(b.entries, settings(500 + ((seed * 104729) % 10000)));
    if (!prep) continue;
    prepared++;
    assert.deepEqual(
      [...prep.summarizeEntryIds, ...prep.turnPrefixEntryIds, ...prep.keptEntryIds],
      messageIds(b.entries),
      `seed ${seed}`,
    );
    const first = b.entries.find((e) => e.id === prep.firstKeptEntryId)!;
    assert.notEqual((first as { message?: { role: string } }).message?.role, 'toolResult', `seed ${seed}`);
  }
  assert.ok(prepared > 150, `only ${prepared} random paths produced a preparation`);
});

test("property: a second compaction covers the first one's kept part", () => {
  let checked = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const b = randomPath(seed, 6 + (seed % 10));
    const keep = settings(800 + ((seed * 31) % 6000));
    const first = prepareCompaction(b.entries, keep);
    if (!first) continue;
    const firstKeptIndex = b.index(first.firstKeptEntryId);
    b.compaction('FIRST SUMMARY', first.firstKeptEntryId);
    randomPath(seed + 1000, 3 + (seed % 6), b);
    const second = prepareCompaction(b.entries, keep);
    if (!second) continue;
    checked++;
    assert.equal(second.previousSummary, 'FIRST SUMMARY');
    // Everything the model saw after the first compaction is either re-summarized or kept.
    assert.deepEqual(
      [...second.summarizeEntryIds, ...second.turnPrefixEntryIds, ...second.keptEntryIds],
      messageIds(b.entries, firstKeptIndex),
      `seed ${seed}`,
    );
  }
  assert.ok(checked > 100, `only ${checked} second compactions checked`);
});
