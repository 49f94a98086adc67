// Crash safety of appends and of the atomic rewrite: a child process is SIGKILLed at random moments.
// Appends: every acknowledged entry (its promise resolved, so it was fsynced) must be in the file after
// reopening, the file must always open, and an interrupted last line must be reported as
// 'torn-final-line' (and, once a later append terminated it, as an unreadable line — never silently).
// Rewrites: the file is byte-for-byte either the original or the complete new content, never a mix, and
// the original survives in the backup whenever the new content is in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../src/session/store';
import { bundledChild, fixturePath } from './child-bundle';
import { runAndKill, seededRandom, suiteSeed } from './crash-harness';
import { mutateForRewriteTrial } from './fixtures/rewrite-mutation';
import { reportFigures, trials } from './profile';

const HEADER = { type: 'session', version: 3, id: 'crash-trial', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/work' };
const TRIALS_PER_FILE = 10; // later trials on a file start after a crash: stale lock, torn line left behind
/** On a loaded machine the child acknowledges fewer appends before its kill: up to this many times the
 * trials run until more appends than trials were acknowledged, so the check below tests the machine's
 * crash safety, not its load. */
const MAX_TRIALS_FACTOR = 4;

test('append: SIGKILL at random moments loses no acknowledged entry, the file always opens, torn lines are reported', async (t) => {
  const total = trials(100, 1000);
  const seed = suiteSeed();
  const random = seededRandom(seed);
  const bundle = await bundledChild(fixturePath('appender.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-crash-append-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let acknowledged = 0;
  let landedUnacknowledged = 0;
  let tornSeen = 0;
  let staleLocks = 0;
  let finishedEarly = 0;
  let file = '';
  let tornLineNumbers = new Set<number>();
  let known = new Set<string>();
  const started = Date.now();
  let trial = 0;
  for (; trial < total || (acknowledged <= total && trial < total * MAX_TRIALS_FACTOR); trial++) {
    if (trial % TRIALS_PER_FILE === 0) {
      file = join(dir, `s${trial}.jsonl`);
      writeFileSync(file, JSON.stringify(HEADER) + '\n');
      tornLineNumbers = new Set();
      known = new Set();
    }
    const where = `seed ${seed}, trial ${trial}, file ${file}`;
    const killAfter = Math.floor(random() * 40);
    const child = await runAndKill(bundle, [file, '1000000', String(Math.floor(random() * 2 ** 31) + 1)], killAfter);
    assert.ok(child.lines[0]?.startsWith('ready'), `${where}: child never got ready: ${child.stderr}`);
    if (child.finished) finishedEarly++;
    assert.ok(!child.stderr.includes('appender failed'), `${where}: child failed: ${child.stderr}`);
    const acked = child.lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));
    acknowledged += acked.length;
    if (existsSync(`${file}.lock`)) staleLocks++;

    let store: SessionStore;
    try {
      store = await SessionStore.open(file);
    } catch (error) {
      assert.fail(`${where}: session no longer opens after the crash: ${(error as Error).message}`);
    }
    for (const id of acked) assert.ok(store.getEntry(id), `${where}: acknowledged entry ${id} lost`);
    const entries = store.getEntries();
    for (const entry of entries) {
      if (!known.has(entry.id) && !acked.includes(entry.id)) landedUnacknowledged++;
      known.add(entry.id);
    }
    // One writer at a time, each continuing from the last entry: the file is a single intact chain.
    entries.forEach((entry, i) => assert.equal(entry.parentId, i === 0 ? null : entries[i - 1]!.id, `${where}: chain broken at entry ${i}`));
    const lineCount = countLines(readFileSync(file));
    for (const problem of store.loadReport) {
      if (problem.kind === 'torn-final-line') {
        assert.equal(problem.line, lineCount, `${where}: torn line reported at ${problem.line}, file has ${lineCount} lines`);
        if (!tornLineNumbers.has(problem.line)) tornSeen++;
        tornLineNumbers.add(problem.line);
      } else {
        // A torn line terminated by the next writer stays in the file as an unreadable line.
        assert.equal(problem.kind, 'invalid-json', `${where}: unexpected problem ${JSON.stringify(problem)}`);
        assert.ok(tornLineNumbers.has(problem.line), `${where}: line ${problem.line} unreadable but was never a torn last line`);
      }
    }
  }
  const seconds = (Date.now() - started) / 1000;
  reportFigures('crash-append', {
    trials: trial,
    seed,
    acknowledged,
    lost: 0,
    landedUnacknowledged,
    tornFinalLines: tornSeen,
    staleLocksRecovered: staleLocks,
    finishedBeforeKill: finishedEarly,
    seconds: seconds.toFixed(1),
  });
  assert.ok(acknowledged > total, `too few appends were acknowledged (${acknowledged} in ${trial} trials): the trial does not test anything`);
});

function countLines(data: Buffer): number {
  let lines = 0;
  for (let i = data.indexOf(0x0a); i >= 0; i = data.indexOf(0x0a, i + 1)) lines++;
  return data.length > 0 && data[data.length - 1] !== 0x0a ? lines + 1 : lines;
}

test('rewrite: SIGKILL during rewriteEntries leaves the original or the new file, never a mix, and keeps the backup', async (t) => {
  const total = trials(100, 1000);
  const seed = suiteSeed() + 1;
  const random = seededRandom(seed);
  const bundle = await bundledChild(fixturePath('rewriter.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'arbor-crash-rewrite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  // The original: a few MB so the rewrite takes long enough to be hit mid-way.
  const original = join(dir, 'original.jsonl');
  const lines = [JSON.stringify(HEADER)];
  let parent: string | null = null;
  for (let i = 0; i < 400; i++) {
    const id = `e${String(i).padStart(7, '0')}`;
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const message =
      role === 'user'
        ? { role, content: `question ${i} ` + 'q'.repeat(3000 + (i % 7) * 500), timestamp: i }
        : { role, content: [{ type: 'text', text: `answer ${i} ` + 'a'.repeat(4000) }], api: 'openai-completions', provider: 'p', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: i };
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date(Date.parse('2025-01-01T00:00:00Z') + i * 1000).toISOString(), message }));
    parent = id;
  }
  writeFileSync(original, lines.join('\n') + '\n');
  const originalBytes = readFileSync(original);
  // The expected new content: the same rewrite, uninterrupted, on a copy.
  const reference = join(dir, 'reference.jsonl');
  copyFileSync(original, reference);
  const { backupPath: referenceBackup } = await (await SessionStore.open(reference)).rewriteEntries(mutateForRewriteTrial);
  const newBytes = readFileSync(reference);
  assert.ok(!newBytes.equals(originalBytes), 'the mutation must change the file');
  assert.ok(readFileSync(referenceBackup).equals(originalBytes));

  let sawOriginal = 0;
  let sawNew = 0;
  let completed = 0;
  let leftoverTemps = 0;
  let clearedTemps = 0;
  const started = Date.now();
  for (let trial = 0; trial < total; trial++) {
    const trialDir = join(dir, `t${trial}`);
    const file = join(trialDir, 'session.jsonl');
    rmSync(trialDir, { recursive: true, force: true });
    mkdirSync(trialDir);
    copyFileSync(original, file);
    const where = `seed ${seed}, trial ${trial}`;
    const child = await runAndKill(bundle, [file], Math.floor(random() * 60));
    assert.ok(child.lines[0] === 'ready', `${where}: child never got ready: ${child.stderr}`);
    assert.ok(!child.stderr.includes('rewriter failed'), `${where}: child failed: ${child.stderr}`);
    const done = child.lines.some((l) => l.startsWith('done '));
    const now = readFileSync(file);
    const isOriginal = now.equals(originalBytes);
    const isNew = now.equals(newBytes);
    assert.ok(isOriginal || isNew, `${where}: file is neither the original nor the new content (${now.length} bytes)`);
    if (done) {
      completed++;
      assert.ok(isNew, `${where}: rewrite acknowledged but the file is not the new content`);
    }
    const names = readdirSync(trialDir);
    const backups = names.filter((n) => n.includes('.bak'));
    if (isNew) {
      sawNew++;
      assert.equal(backups.length, 1, `${where}: new content in place but backups are ${JSON.stringify(names)}`);
      assert.ok(readFileSync(join(trialDir, backups[0]!)).equals(originalBytes), `${where}: backup is not the original`);
    } else sawOriginal++;
    for (const backup of backups) {
      // A backup interrupted while being copied may be short, but it must be a prefix of the original.
      const data = readFileSync(join(trialDir, backup));
      assert.ok(originalBytes.subarray(0, data.length).equals(data), `${where}: backup ${backup} is not (a prefix of) the original`);
    }
    if (names.some((n) => n.includes('.tmp-'))) leftoverTemps++;
    // Whatever happened, the session opens and takes new appends (a stale lock from the dead child is cleared).
    const store = await SessionStore.open(file);
    const added = await store.appendMessage({ role: 'user', content: 'after the crash', timestamp: 1 });
    assert.ok((await SessionStore.open(file)).getEntry(added.id), `${where}: append after crash lost`);
    // The killed child's temp (if any) is cleared by that first locked write.
    const tempsAfter = readdirSync(trialDir).filter((n) => n.includes('.tmp-'));
    assert.deepEqual(tempsAfter, [], `${where}: temps of the dead rewriter survived the next append`);
    if (names.some((n) => n.includes('.tmp-'))) clearedTemps++;
    rmSync(trialDir, { recursive: true, force: true });
  }
  reportFigures('crash-rewrite', {
    trials: total,
    seed,
    original: sawOriginal,
    new: sawNew,
    acknowledged: completed,
    mixed: 0,
    leftoverTempFiles: leftoverTemps,
    tempFilesClearedByNextAppend: clearedTemps,
    seconds: ((Date.now() - started) / 1000).toFixed(1),
  });
  assert.ok(sawOriginal > 0 && sawNew > 0, `kills must land both before and after the rename (original ${sawOriginal}, new ${sawNew}); adjust timing`);
});
