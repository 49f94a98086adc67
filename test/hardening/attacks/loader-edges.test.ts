// Issue #14 item 7 (loader): a session file saved with a UTF-8 byte order mark opens and stays valid after
// writes; a file from a newer Arbor/pi (header version above the one we know) opens read-only with a notice
// the user sees, and is never appended to or rewritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';
import { summarizeSession } from '../../../src/session/catalog';
import { appHarness } from '../../unit/app/helpers';

const BOM = '\uFEFF';

function entryLine(id: string, parentId: string | null, content: string): string {
  return JSON.stringify({ type: 'message', id, parentId, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content, timestamp: 1 } });
}

function header(version: number): string {
  return JSON.stringify({ type: 'session', version, id: 'edge-session', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/work' });
}

function tempFile(t: { after(fn: () => void): void }, name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-loader-edges-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('a session file starting with a UTF-8 BOM opens, lists, and stays valid after an append and a rewrite', async (t) => {
  const file = tempFile(t, 'bom.jsonl', BOM + header(3) + '\n' + entryLine('a1', null, 'hello') + '\n');
  const store = await SessionStore.open(file).catch((error: unknown) => error);
  assert.ok(store instanceof SessionStore, `a BOM file did not open: ${String(store)}`);
  assert.deepEqual(store.loadReport, []);
  assert.equal(store.header.id, 'edge-session');
  assert.ok(store.getEntry('a1'));
  const summary = await summarizeSession(file).catch((error: unknown) => error);
  assert.ok(!(summary instanceof Error), `the Sessions list could not read it: ${String(summary)}`);
  const added = await store.appendMessage({ role: 'user', content: 'after the BOM', timestamp: 2 });
  await store.rewriteEntries((entries) => entries);
  const reopened = await SessionStore.open(file);
  assert.deepEqual(reopened.loadReport, [], 'the file stays valid after writing');
  assert.ok(reopened.getEntry('a1') && reopened.getEntry(added.id));
});

test('a header with a newer version opens read-only: appends and rewrites refuse, the file is untouched', async (t) => {
  const original = header(4) + '\n' + entryLine('a1', null, 'from the future') + '\n';
  const file = tempFile(t, 'future.jsonl', original);
  const store = await SessionStore.open(file);
  assert.deepEqual(store.readOnly, { reason: 'newer-version', version: 4 }, 'the store says it is read-only and why');
  assert.ok(store.loadReport.some((p) => p.kind === 'read-only' && /newer version \(v4\)/.test(p.message)), JSON.stringify(store.loadReport));
  assert.ok(store.getEntry('a1'), 'its entries are readable');
  const append = await store.appendMessage({ role: 'user', content: 'must not land', timestamp: 2 }).then(() => 'appended', (error: unknown) => error);
  assert.equal((append as Error).name, 'SessionReadOnlyError', `append: ${String(append)}`);
  const rewrite = await store.rewriteEntries((entries) => entries.slice(1)).then(() => 'rewritten', (error: unknown) => error);
  assert.equal((rewrite as Error).name, 'SessionReadOnlyError', `rewrite: ${String(rewrite)}`);
  assert.equal(readFileSync(file, 'utf8'), original, 'the newer file was changed');
});

test('the app tells the user a newer session was opened read-only', async (t) => {
  const h = await appHarness();
  const original = header(4) + '\n' + entryLine('a1', null, 'from the future') + '\n';
  const file = tempFile(t, 'future-app.jsonl', original);
  await h.app.session.openSession(file);
  const notices = h.changes.flatMap((c) => (c.kind === 'agent' && c.event.type === 'notice' ? [c.event] : []));
  const expected = 'This session was written by a newer version (v4); Arbor opened it read-only.';
  assert.ok(notices.some((n) => n.level === 'warning' && n.message.startsWith(expected)), `notices: ${JSON.stringify(notices)}`);
  assert.ok(h.logs.some((l) => l.startsWith('warn') && l.includes('read-only')), 'the notice is logged too');
  // Typing into it anyway: the turn ends with that reason as an error, and nothing is written.
  await h.app.prompt('hello');
  await h.app.currentStore?.refresh();
  const deadline = Date.now() + 5_000;
  const failed = () => h.changes.some((c) => c.kind === 'agent' && c.event.type === 'error' && /read-only/.test(c.event.message));
  while (!failed() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(failed(), 'the prompt must fail with the read-only reason');
  assert.equal(readFileSync(file, 'utf8'), original, 'the newer file was changed');
});
