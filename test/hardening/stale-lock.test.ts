// A writer killed right after creating the lock file, before writing its pid into it, leaves an empty
// lock behind. The session must become writable again quickly, not stay "locked by another writer".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../src/session/store';
import { headerLine } from './session-corpus';

test('an empty lock file left by a crashed writer does not block the session', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-stale-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, headerLine() + '\n');
  writeFileSync(`${file}.lock`, ''); // what a SIGKILL between open(O_EXCL) and write leaves
  const store = await SessionStore.open(file);
  const started = Date.now();
  const entry = await store.appendMessage({ role: 'user', content: 'after the crash', timestamp: 1 });
  const waited = Date.now() - started;
  assert.ok((await SessionStore.open(file)).getEntry(entry.id));
  assert.ok(waited < 10_000, `waited ${waited} ms for a lock nobody holds`);
});
