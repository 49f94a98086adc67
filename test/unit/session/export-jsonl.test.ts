// `arbor-session export --format jsonl` (issue #16): the root→leaf branch as a standalone session, written
// through Fork's code path (src/session/branch-session.ts). Checked against pi 1.5.2 and 1.6.0 themselves:
// pi 1.5.2's own fork of the fixture (fork.jsonl, pi's createBranchedSession), and each pi's reading of
// Arbor's exports and appends (test/fixtures/pi-1.x/exported/ and pi-1.6/appended/, made by
// scripts/check-pi-reads-exports.mjs with pi's SessionManager).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { exportBranchSession } from '../../../src/session/branch-session';
import { runCli } from '../../../src/cli/main';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'pi-1.5');
type Line = Record<string, unknown>;

function tmp(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-export-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function linesOf(file: string): Line[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

/** Entries with the fresh parts a new file gets anyway (a re-created label's id and chain) left out. */
function comparable(lines: Line[]): Line[] {
  return lines.slice(1).map((l) => (l.type === 'label' ? { ...l, id: '(new)', parentId: '(chain)' } : l));
}

function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

test("the export at pi's fork leaf has the entries pi's own fork has (labels re-created, path re-linked)", async (t) => {
  const source = join(fixtures, 'branches-edits-system.jsonl');
  const store = await SessionStore.open(source);
  const piFork = linesOf(join(fixtures, 'fork.jsonl'));
  const leaf = piFork.filter((l) => l.type !== 'label' && l.type !== 'session').at(-1)!.id as string;
  const out = join(tmp(t), 'out.jsonl');
  const header = await exportBranchSession(store, leaf, out);
  const ours = linesOf(out);
  assert.deepEqual(comparable(ours), comparable(piFork));
  assert.deepEqual(ours[0], { ...header });
  assert.equal(header.parentSession, resolve(source));
  assert.notEqual(header.id, store.header.id);
  assert.equal(header.cwd, store.header.cwd);
});

for (const series of ['pi-1.5', 'pi-1.6']) {
  const seriesDir = join(__dirname, '..', '..', 'fixtures', series);
  const seriesExported = join(seriesDir, 'exported');
  const checked = readdirSync(seriesExported).filter((f) => f.endsWith('.jsonl'));

  test(`${series}: pi read every checked-in export with the context pi builds for the source leaf`, () => {
    assert.ok(checked.length >= 4, checked.join(', '));
    for (const file of checked) {
      const [fixture, leaf] = file.split('.');
      const source = JSON.parse(readFileSync(join(seriesDir, `${fixture}.contexts.json`), 'utf8')) as { contexts: Record<string, unknown> };
      const piRead = JSON.parse(readFileSync(join(seriesExported, file.replace(/\.jsonl$/, '.pi-context.json')), 'utf8'));
      assert.deepEqual(piRead, source.contexts[leaf!], file);
    }
  });

  test(`${series}: the current export of every fixture leaf equals the export pi read, and Arbor reads it as pi does`, async (t) => {
    const dir = tmp(t);
    for (const file of checked) {
      const [fixture, leaf] = file.split('.');
      const store = await SessionStore.open(join(seriesDir, `${fixture}.jsonl`));
      const out = join(dir, file);
      await exportBranchSession(store, leaf!, out);
      assert.deepEqual(comparable(linesOf(out)), comparable(linesOf(join(seriesExported, file))), `${file}: export unchanged since pi read it`);
      const reopened = await SessionStore.open(out);
      assert.deepEqual(reopened.loadReport, []);
      const piRead = JSON.parse(readFileSync(join(seriesExported, file.replace(/\.jsonl$/, '.pi-context.json')), 'utf8'));
      assert.deepEqual(asJson(reopened.buildContext(reopened.getLeafId())), piRead, `${file}: Arbor's context of the export`);
      for (const entry of store.getBranch(leaf!)) assert.equal(reopened.getLabel(entry.id), store.getLabel(entry.id), `label of ${entry.id}`);
    }
  });
}

/** The raw text of every entry line of a file, by entry id. */
function rawLines(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(1);
  return new Map(lines.map((line) => [(JSON.parse(line) as { id: string }).id, line]));
}

const pi16 = join(__dirname, '..', '..', 'fixtures', 'pi-1.6');

test("pi 1.6.0's new shapes (diagnostics, imageUnsupportedByModel, Operation aborted) survive Arbor's export byte for byte", async (t) => {
  const source = join(pi16, 'new-shapes.jsonl');
  const text = readFileSync(source, 'utf8');
  for (const shape of ['"diagnostics":[{"type":"openai_input_transformations"', '"details":{"imageUnsupportedByModel":', '"text":"Operation aborted"}],"details":{},"isError":true']) {
    assert.ok(text.includes(shape), `the fixture has ${shape}`);
  }
  const store = await SessionStore.open(source);
  const out = join(tmp(t), 'out.jsonl');
  await exportBranchSession(store, store.getLeafId()!, out);
  const ours = rawLines(out);
  for (const [id, line] of rawLines(source)) assert.equal(ours.get(id), line, `entry ${id} byte for byte`);
});

test("Arbor's appends to pi 1.6.0 files keep pi's bytes, and pi 1.6.0 read the result with Arbor's context", async () => {
  const appended = join(pi16, 'appended');
  const files = readdirSync(appended).filter((f) => f.endsWith('.jsonl'));
  assert.ok(files.length >= 3, files.join(', '));
  for (const file of files) {
    const original = readFileSync(join(pi16, file), 'utf8');
    const written = readFileSync(join(appended, file), 'utf8');
    assert.ok(written.startsWith(original), `${file}: pi's bytes kept as they were`);
    assert.ok(written.length > original.length, `${file}: Arbor appended`);
    const store = await SessionStore.open(join(appended, file));
    const piRead = JSON.parse(readFileSync(join(appended, file.replace(/\.jsonl$/, '.pi-context.json')), 'utf8'));
    assert.deepEqual(asJson(store.buildContext(store.getLeafId())), piRead, `${file}: pi's context = Arbor's`);
  }
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

test('arbor-session export --format jsonl: --leaf, --out required, refuses the source as --out and an empty branch', async (t) => {
  const dir = tmp(t);
  const source = join(fixtures, 'branches-edits-system.jsonl');
  const out = join(dir, 'branch.jsonl');
  const done = await cli('export', source, '--format', 'jsonl', '--leaf', 'e4f1a08d', '--out', out);
  assert.equal(done.code, 0, done.err);
  const lines = linesOf(out);
  assert.equal(lines[0]!.parentSession, resolve(source));
  assert.equal(lines.filter((l) => l.type !== 'label').at(-1)!.id, 'e4f1a08d');
  assert.match(done.err, /wrote session/);
  assert.equal((await cli('export', source, '--format', 'jsonl')).code, 2);
  assert.equal((await cli('export', source, '--format', 'jsonl', '--out', source)).code, 2);
  assert.equal((await cli('export', source, '--format', 'jsonl', '--leaf', 'null', '--out', out)).code, 2);
  assert.equal((await cli('export', source, '--format', 'jsonl', '--leaf', 'nope', '--out', out)).code, 2);
});
