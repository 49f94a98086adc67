// `arbor-session export --format jsonl` (issue #16): the root→leaf branch as a standalone session, written
// through Fork's code path (src/session/branch-session.ts). Checked against pi 1.5.2 itself: its own fork of
// the fixture (fork.jsonl, pi's createBranchedSession), and its reading of Arbor's exports
// (test/fixtures/pi-1.5/exported/, made by scripts/check-pi-reads-exports.mjs with pi's SessionManager).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { exportBranchSession } from '../../../src/session/branch-session';
import { runCli } from '../../../src/cli/main';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'pi-1.5');
const exported = join(fixtures, 'exported');
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

const checked = readdirSync(exported).filter((f) => f.endsWith('.jsonl'));

test('pi 1.5.2 read every checked-in export with the context pi builds for the source leaf', () => {
  assert.ok(checked.length >= 4, checked.join(', '));
  for (const file of checked) {
    const [fixture, leaf] = file.split('.');
    const source = JSON.parse(readFileSync(join(fixtures, `${fixture}.contexts.json`), 'utf8')) as { contexts: Record<string, unknown> };
    const piRead = JSON.parse(readFileSync(join(exported, file.replace(/\.jsonl$/, '.pi-context.json')), 'utf8'));
    assert.deepEqual(piRead, source.contexts[leaf!], file);
  }
});

test('the current export of every fixture leaf equals the export pi read, and Arbor reads it as pi does', async (t) => {
  const dir = tmp(t);
  for (const file of checked) {
    const [fixture, leaf] = file.split('.');
    const store = await SessionStore.open(join(fixtures, `${fixture}.jsonl`));
    const out = join(dir, file);
    await exportBranchSession(store, leaf!, out);
    assert.deepEqual(comparable(linesOf(out)), comparable(linesOf(join(exported, file))), `${file}: export unchanged since pi read it`);
    const reopened = await SessionStore.open(out);
    assert.deepEqual(reopened.loadReport, []);
    const piRead = JSON.parse(readFileSync(join(exported, file.replace(/\.jsonl$/, '.pi-context.json')), 'utf8'));
    assert.deepEqual(asJson(reopened.buildContext(reopened.getLeafId())), piRead, `${file}: Arbor's context of the export`);
    for (const entry of store.getBranch(leaf!)) assert.equal(reopened.getLabel(entry.id), store.getLabel(entry.id), `label of ${entry.id}`);
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
