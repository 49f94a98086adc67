// Short writes: when the disk fills up (simulated with a file-size limit, `ulimit -f`), a write can
// store only part of its bytes. An append or rewrite that did not store everything must fail, never
// be acknowledged; the session must still open with every acknowledged entry, and a rewrite must leave
// the original in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../src/session/store';
import { bundledChild, fixturePath } from './child-bundle';

const HEADER = JSON.stringify({ type: 'session', version: 3, id: 'short-write', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/work' });
const LIMIT_KB = 100; // bash `ulimit -f` counts 1024-byte blocks

function runLimited(bundle: string, args: string[]): string[] {
  const result = spawnSync('bash', ['-c', `ulimit -f ${LIMIT_KB} && exec "$0" "$@"`, process.execPath, bundle, ...args], { encoding: 'utf8' });
  assert.equal(result.status, 0, `child failed: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

test('appends cut short by a full disk are rejected, never acknowledged', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-short-write-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, HEADER + '\n');
  const bundle = await bundledChild(fixturePath('limited-writer.ts'));
  const lines = runLimited(bundle, ['append', file, '30000', '6']);
  const acked = lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));
  assert.ok(lines.some((l) => l.startsWith('err ')), `the limit must make some append fail: ${lines.join(' | ')}`);
  const store = await SessionStore.open(file);
  for (const id of acked) assert.ok(store.getEntry(id), `acknowledged entry ${id} is not in the file (${lines.join(' | ')})`);
  // With room again, the session continues normally after the partial line.
  const added = await store.appendMessage({ role: 'user', content: 'after', timestamp: 1 });
  assert.ok((await SessionStore.open(file)).getEntry(added.id));
});

test('a rewrite cut short by a full disk leaves the original file in place', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-short-rewrite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  const lines = [HEADER];
  let parent: string | null = null;
  for (let i = 0; i < 8; i++) {
    const id = `e000000${i}`;
    lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'y'.repeat(4000), timestamp: i } }));
    parent = id;
  }
  writeFileSync(file, lines.join('\n') + '\n');
  const before = readFileSync(file);
  const bundle = await bundledChild(fixturePath('limited-writer.ts'));
  const out = runLimited(bundle, ['grow', file, '4']); // ~130 KB of new content against a 100 KB limit
  const after = readFileSync(file);
  if (out.includes('done')) {
    const store = await SessionStore.open(file);
    assert.equal(store.loadReport.length, 0, `rewrite acknowledged but the file is damaged: ${JSON.stringify(store.loadReport)}`);
    assert.equal(store.entryCount, 8);
  } else {
    assert.ok(after.equals(before), `rewrite failed (${out.join(' | ')}) but the file changed: ${before.length} → ${after.length} bytes`);
  }
});
