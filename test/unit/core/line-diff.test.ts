// The approval card's compact unified diff: correct edit scripts (replaying them gives the new text),
// minimal on small cases, standard hunk headers, capped output, and bounded work on huge rewrites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactDiff, lineEdits, splitLines, type DiffLine } from '../../../src/core/line-diff';
import { seededRandom } from '../seeded-random';

const show = (l: DiffLine) => (l.kind === '@' ? l.text : l.kind + l.text);

function replay(original: string, proposed: string): { old: string[]; next: string[] } {
  const edits = lineEdits(original, proposed);
  return { old: edits.filter((e) => e.kind !== '+').map((e) => e.text), next: edits.filter((e) => e.kind !== '-').map((e) => e.text) };
}

test('an edit script replays both texts exactly (random line soups)', () => {
  const random = seededRandom(14);
  for (let round = 0; round < 200; round++) {
    const pick = () => Array.from({ length: Math.floor(random() * 30) }, () => 'abcde'[Math.floor(random() * 5)]!).join('\n');
    const a = pick();
    const b = pick();
    const { old, next } = replay(a, b);
    assert.deepEqual(old, splitLines(a));
    assert.deepEqual(next, splitLines(b));
  }
});

test('a one-line change is one removal and one addition, with three lines of context', () => {
  const a = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n') + '\n';
  const b = a.replace('5', 'five');
  const diff = compactDiff(a, b);
  assert.deepEqual(diff.lines.map(show), ['@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8']);
  assert.deepEqual([diff.added, diff.removed, diff.omittedLines], [1, 1, 0]);
});

test('new file, emptied file, CRLF endings and separate hunks', () => {
  assert.deepEqual(compactDiff('', 'a\nb\n').lines.map(show), ['@@ -0,0 +1,2 @@', '+a', '+b']);
  assert.deepEqual(compactDiff('a\n', '').lines.map(show), ['@@ -1,1 +0,0 @@', '-a']);
  assert.deepEqual(compactDiff('a\r\nb\r\n', 'a\r\nc\r\n').lines.map(show), ['@@ -1,2 +1,2 @@', ' a', '-b', '+c']);
  const lines = Array.from({ length: 40 }, (_, i) => `l${i}`);
  const changed = lines.map((l, i) => (i === 2 || i === 30 ? `${l}!` : l));
  assert.equal(compactDiff(lines.join('\n'), changed.join('\n')).lines.filter((l) => l.kind === '@').length, 2);
  assert.deepEqual(compactDiff('same\n', 'same\n').lines, []);
});

test('the shown diff is capped and says how much was left out; long lines are cut with a count', () => {
  const b = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
  const diff = compactDiff('', b, { maxLines: 50 });
  assert.equal(diff.lines.length, 50);
  assert.equal(diff.omittedLines, 451);
  assert.equal(diff.added, 500);
  const long = compactDiff('', 'x'.repeat(5000), { maxLineChars: 100 }).lines[1]!.text;
  assert.equal(long, `${'x'.repeat(100)}… (4900 more characters)`);
});

test('a huge total rewrite finishes quickly as one replaced block', () => {
  const a = Array.from({ length: 60_000 }, (_, i) => `a${i}`).join('\n');
  const b = Array.from({ length: 60_000 }, (_, i) => `b${i}`).join('\n');
  const started = Date.now();
  const diff = compactDiff(a, b);
  assert.deepEqual([diff.added, diff.removed], [60_000, 60_000]);
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
});
