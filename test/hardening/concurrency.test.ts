// Two processes appending to one session at the same time (as two VS Code windows would): no interleaved
// or lost lines, every line parses, both writers' entries are all there, and each writer's own chain of
// parents is intact. Also: a writer killed while it may hold the lock does not block the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../src/session/store';
import { bundledChild, fixturePath } from './child-bundle';
import { runAndKill, seededRandom, suiteSeed } from './crash-harness';
import { reportFigures, trials } from './profile';
import { headerLine } from './session-corpus';

interface Ack {
  id: string;
  parentId: string | null;
}

/** The leaf the writer opened at (`ready <leafId>`): its first entry's parent. */
const startLeaf = (lines: string[]): string | null => {
  const leaf = lines.find((l) => l.startsWith('ready '))!.slice(6);
  return leaf === 'null' ? null : leaf;
};

const acksOf = (lines: string[]): Ack[] =>
  lines.filter((l) => l.startsWith('ack ')).map((l) => {
    const [, id, parentId] = l.split(' ');
    return { id: id!, parentId: parentId === 'null' ? null : parentId! };
  });

function checkChain(store: SessionStore, name: string, acks: Ack[], startLeaf: string | null): void {
  let previous = startLeaf;
  for (const ack of acks) {
    const entry = store.getEntry(ack.id);
    assert.ok(entry, `${name}: acknowledged entry ${ack.id} missing`);
    assert.equal(entry.parentId, previous, `${name}: entry ${ack.id} should continue its writer's chain`);
    assert.equal(ack.parentId, previous);
    previous = ack.id;
  }
}

test('two processes appending to the same session at once: nothing interleaved, lost or re-parented', async (t) => {
  const rounds = trials(2, 10);
  const perWriter = trials(300, 1000);
  const seed = suiteSeed();
  const random = seededRandom(seed);
  const bundle = await bundledChild(fixturePath('racer.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-concurrency-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const started = Date.now();
  for (let round = 0; round < rounds; round++) {
    const file = join(dir, `s${round}.jsonl`);
    writeFileSync(file, headerLine() + '\n');
    const never = 3_600_000; // these children are not killed
    const [a, b] = await Promise.all([
      runAndKill(bundle, [file, 'A', String(perWriter), String(Math.floor(random() * 2 ** 31) + 1)], never, 120_000),
      runAndKill(bundle, [file, 'B', String(perWriter), String(Math.floor(random() * 2 ** 31) + 1)], never, 120_000),
    ]);
    for (const child of [a, b]) assert.ok(child.finished && child.exitCode === 0 && child.lines.includes('done'), `round ${round}: writer failed: ${child.stderr}`);
    const store = await SessionStore.open(file);
    assert.deepEqual(store.loadReport, [], `round ${round} (seed ${seed}): every line must parse`);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    assert.equal(lines.length, 1 + 2 * perWriter, `round ${round}: exactly one line per entry`);
    const acksA = acksOf(a.lines);
    const acksB = acksOf(b.lines);
    assert.equal(acksA.length + acksB.length, 2 * perWriter);
    checkChain(store, `round ${round} writer A`, acksA, startLeaf(a.lines));
    checkChain(store, `round ${round} writer B`, acksB, startLeaf(b.lines));
    for (const line of lines.slice(1)) {
      const entry = JSON.parse(line);
      assert.match(entry.message.content, /^[AB] \d+ \.+$/, `round ${round}: a line mixes two writers' bytes`);
    }
    // Both really ran at the same time: their entries alternate somewhere in the file.
    const order = lines.slice(1).map((l) => JSON.parse(l).message.content[0] as string).join('');
    const switches = order.split('').filter((c, i) => i > 0 && c !== order[i - 1]).length;
    assert.ok(switches >= 2, `round ${round}: writers did not overlap (${switches} switches); the test proves nothing`);
    reportFigures('concurrency', { round, seed, entriesPerWriter: perWriter, writerSwitches: switches, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  }
});

test('a writer killed mid-way (possibly holding the lock) does not block or damage the other', async (t) => {
  const rounds = trials(3, 20);
  const perWriter = 200;
  const seed = suiteSeed() + 7;
  const random = seededRandom(seed);
  const bundle = await bundledChild(fixturePath('racer.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-concurrency-kill-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (let round = 0; round < rounds; round++) {
    const file = join(dir, `k${round}.jsonl`);
    writeFileSync(file, headerLine() + '\n');
    const [victim, survivor] = await Promise.all([
      runAndKill(bundle, [file, 'A', '1000000', String(Math.floor(random() * 2 ** 31) + 1)], 20 + Math.floor(random() * 150)),
      runAndKill(bundle, [file, 'B', String(perWriter), String(Math.floor(random() * 2 ** 31) + 1)], 3_600_000, 120_000),
    ]);
    assert.equal(victim.signal, 'SIGKILL');
    assert.ok(survivor.lines.includes('done'), `round ${round}: the surviving writer did not finish: ${survivor.stderr}`);
    const store = await SessionStore.open(file);
    for (const problem of store.loadReport) assert.equal(problem.kind, 'torn-final-line', `round ${round}: ${JSON.stringify(problem)}`);
    for (const ack of [...acksOf(victim.lines), ...acksOf(survivor.lines)]) assert.ok(store.getEntry(ack.id), `round ${round}: acknowledged ${ack.id} lost`);
    checkChain(store, `round ${round} survivor`, acksOf(survivor.lines), startLeaf(survivor.lines));
  }
});
