#!/usr/bin/env node
// Checks that pi (1.5.2 or 1.6.0) reads what `arbor-session export --format jsonl` writes (issue #16): for
// every leaf of every fixture of that pi (test/fixtures/pi-1.5 or pi-1.6), Arbor exports the branch, pi's own SessionManager opens the exported file, and
// the context pi builds for it must equal the context pi built for that leaf in the source
// (`<name>.contexts.json`); the labels and `parentSession` must read back. The exported files and pi's
// reading of them are checked in under test/fixtures/pi-<series>/exported/, where
// test/unit/session/export-jsonl.test.ts compares them with what the current code exports. Then Arbor
// appends to a copy of each fixture (`appended/`) and pi must read it as before plus the new message.
//
// Run (CONTRIBUTING.md "Regenerating the pi fixtures"):
//   PI_BUNDLE=/tmp/pi/package/dist/bundle/index.js /tmp/node22/package/bin/node --import tsx scripts/check-pi-reads-exports.mjs
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPiBundle } from './lib/pi-bundle.mjs';

const pi = await loadPiBundle();
const { SessionStore } = await import('../src/session/store.ts');
const { exportBranchSession } = await import('../src/session/branch-session.ts');

const series = pi.VERSION.split('.').slice(0, 2).join('.');
const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures', `pi-${series}`);
const outDir = join(fixtures, 'exported');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const report = { piVersion: pi.VERSION, checked: [] };
for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -'.jsonl'.length))) {
  const source = join(fixtures, `${name}.jsonl`);
  const { contexts } = JSON.parse(readFileSync(join(fixtures, `${name}.contexts.json`), 'utf8'));
  const store = await SessionStore.open(source);
  for (const leaf of Object.keys(contexts)) {
    const file = join(outDir, `${name}.${leaf}.jsonl`);
    await exportBranchSession(store, leaf, file);
    const read = pi.SessionManager.open(file, outDir);
    const context = read.buildSessionContext();
    assert.deepEqual(context, contexts[leaf], `pi's context of the export of ${name} at ${leaf} = its context of the source`);
    assert.equal(read.getHeader().parentSession, store.file.startsWith('/') ? store.file : join(process.cwd(), store.file));
    for (const entry of store.getBranch(leaf)) assert.equal(read.getLabel(entry.id), store.getLabel(entry.id), `label of ${entry.id}`);
    writeFileSync(join(outDir, `${name}.${leaf}.pi-context.json`), JSON.stringify(context, null, 1) + '\n');
    report.checked.push({ fixture: name, leaf, entries: read.getEntries().length, messages: context.messages.length });
  }
}
// Arbor's own writes to a pi file: a copy of each fixture gets one appended exchange through SessionStore;
// pi must read every earlier entry as before and the new messages at the end of its context.
const appendedDir = join(fixtures, 'appended');
rmSync(appendedDir, { recursive: true, force: true });
mkdirSync(appendedDir, { recursive: true });
for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -'.jsonl'.length))) {
  const file = join(appendedDir, `${name}.jsonl`);
  copyFileSync(join(fixtures, `${name}.jsonl`), file);
  const store = await SessionStore.open(file);
  const leaf = store.getLeafId();
  const before = pi.SessionManager.open(file, appendedDir).buildSessionContext();
  await store.appendMessage({ role: 'user', content: [{ type: 'text', text: 'written by Arbor' }], timestamp: 1767300000000 });
  const context = pi.SessionManager.open(file, appendedDir).buildSessionContext();
  assert.deepEqual(context.messages.slice(0, -1), before.messages, `pi reads ${name} as before after Arbor's append at ${leaf}`);
  assert.equal(context.messages.at(-1).content[0].text, 'written by Arbor');
  writeFileSync(join(appendedDir, `${name}.pi-context.json`), JSON.stringify(context, null, 1) + '\n');
  report.checked.push({ fixture: name, appendedAt: leaf, messages: context.messages.length });
}
console.log(JSON.stringify(report, null, 1));
