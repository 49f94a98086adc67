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

/**
 * The only damage a killed writer may leave is its own unfinished line: at the end of the file, or, when the
 * survivor appended after it, ended by the survivor's newline and skipped as an unreadable line. Either way it
 * is a cut-off prefix of one of the victim's entries, and there is at most one.
 */
function checkKillDamage(file: string, problems: readonly { line: number; kind: string }[], label: string): string {
  assert.ok(problems.length <= 1, `${label}: ${problems.length} damaged lines, one kill can tear one: ${JSON.stringify(problems)}`);
  const problem = problems[0];
  if (!problem) return 'none';
  assert.ok(['torn-final-line', 'invalid-json'].includes(problem.kind), `${label}: ${JSON.stringify(problem)}`);
  const raw = readFileSync(file, 'utf8').split('\n')[problem.line - 1] ?? '';
  const cutOff = raw.startsWith('{"type":"message"') && !raw.endsWith('}') && !/"content":"(?!A )/.test(raw);
  assert.ok(cutOff, `${label}: the damaged line is not a cut-off victim entry: ${raw.slice(0, 200)}`);
  return problem.kind;
}

test('a writer killed mid-way (possibly holding the lock) does not block or damage the other', async (t) => {
  const rounds = trials(3, 20);
  const perWriter = 200;
  const seed = suiteSeed() + 7;
  const random = seededRandom(seed);
  const bundle = await bundledChild(fixturePath('racer.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-concurrency-kill-'));
  const damages: Record<string, number> = {};
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
    const damage = checkKillDamage(file, store.loadReport, `round ${round}`);
    damages[damage] = (damages[damage] ?? 0) + 1;
    for (const ack of [...acksOf(victim.lines), ...acksOf(survivor.lines)]) assert.ok(store.getEntry(ack.id), `round ${round}: acknowledged ${ack.id} lost`);
    checkChain(store, `round ${round} survivor`, acksOf(survivor.lines), startLeaf(survivor.lines));
  }
  reportFigures('concurrency-kill', { rounds, seed, clean: damages.none ?? 0, tornAtEnd: damages['torn-final-line'] ?? 0, tornThenEnded: damages['invalid-json'] ?? 0 });
});

test('a victim line cut off mid-write and then ended by the survivor is the one damage allowed, and recognised', async (t) => {
  const bundle = await bundledChild(fixturePath('racer.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-concurrency-torn-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'torn.jsonl');
  writeFileSync(file, headerLine() + '\n');
  const victim = await runAndKill(bundle, [file, 'A', '3', '11'], 3_600_000, 120_000);
  const whole = readFileSync(file, 'utf8');
  const last = whole.trimEnd().split('\n').pop()!;
  writeFileSync(file, whole.slice(0, whole.length - 1 - last.length) + last.slice(0, Math.floor(last.length / 2)));
  const survivor = await runAndKill(bundle, [file, 'B', '5', '13'], 3_600_000, 120_000);
  assert.ok(victim.lines.includes('done') && survivor.lines.includes('done'), survivor.stderr);
  const store = await SessionStore.open(file);
  assert.equal(checkKillDamage(file, store.loadReport, 'torn then ended'), 'invalid-json');
  assert.equal(acksOf(survivor.lines).filter((ack) => store.getEntry(ack.id)).length, 5);
  // A survivor's own line in the damaged slot would not pass for a cut-off victim entry.
  const lines = readFileSync(file, 'utf8').split('\n');
  const damaged = store.loadReport[0]!.line;
  writeFileSync(file, [...lines.slice(0, damaged - 1), lines[damaged]!.slice(0, -5), ...lines.slice(damaged)].join('\n'));
  const forged = await SessionStore.open(file);
  assert.throws(() => checkKillDamage(file, forged.loadReport, 'forged'), /not a cut-off victim entry/);
});
