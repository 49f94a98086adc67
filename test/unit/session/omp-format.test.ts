// oh-my-pi 18 session files (test/fixtures/omp-18, built by hand from omp's types): the title slot before
// the header, omp's model_change/thinking_level_change shapes, reset_boundary, its message roles, blob image
// references, titles as names, unknown future entries reported once and kept. All failed on f262ede.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSessions, summarizeSession } from '../../../src/session/catalog';
import { convertToLlm } from '../../../src/session/convert';
import { BLOB_IMAGE_PLACEHOLDER } from '../../../src/session/omp-messages';
import { SessionStore } from '../../../src/session/store';
import { tempDir, user } from './helpers';

const fixture = join(__dirname, '..', '..', 'fixtures', 'omp-18', 'titled.jsonl');

function copy(t: { after(fn: () => void): void }): string {
  const file = join(tempDir(t), '2026-03-01T10-00-00-000Z_omp-sess-1.jsonl');
  copyFileSync(fixture, file);
  return file;
}

test('an omp file with a title slot opens; the slot title is the session name; omp entry shapes are not malformed', async () => {
  const store = await SessionStore.open(fixture);
  assert.equal(store.header.id, 'omp-sess-1');
  assert.equal(store.getSessionName(), 'Fix the parser');
  assert.deepEqual(
    store.loadReport.map((p) => `${p.kind}: ${p.message}`),
    ['unknown-type: 2 entries of unknown type "future_widget" were ignored (kept in the file)'],
  );
  const context = store.buildContext('e13');
  assert.deepEqual(context.model, { provider: 'anthropic', modelId: 'claude-opus-4' });
  assert.equal(context.thinkingLevel, 'off');
});

test('reset_boundary: the context starts after it; omp roles converted as omp does; blob images become a placeholder', async () => {
  const store = await SessionStore.open(fixture);
  const llm = convertToLlm(store.buildContext('e13').messages);
  const text = JSON.stringify(llm);
  assert.ok(!text.includes('before clear') && !text.includes('old answer'), 'nothing before the boundary');
  assert.deepEqual(llm.map((m) => m.role), ['system', 'user', 'user', 'user', 'user', 'assistant']);
  assert.equal(llm[0]!.content, '<file path="notes.md">\n# Notes\n</file>');
  assert.ok(!text.includes('blob:sha256:'), 'no blob reference is sent as image data');
  assert.equal(text.split(BLOB_IMAGE_PLACEHOLDER).length - 1, 2);
  assert.ok(text.includes('Ran Python:\\n```python\\nprint(1+1)\\n```\\nOutput:\\n```\\n2\\n```'));
  assert.ok(text.includes('lint: 0 problems'));
});

test('the Sessions view lists an omp file with its title', async (t) => {
  const file = copy(t);
  const summary = await summarizeSession(file);
  assert.equal(summary.id, 'omp-sess-1');
  assert.equal(summary.name, 'Fix the parser');
  const listed = await listSessions(join(file, '..'));
  assert.deepEqual(listed.skipped, []);
  assert.equal(listed.sessions[0]!.name, 'Fix the parser');
});

test('appends keep the slot intact; a rewrite keeps the slot first byte for byte and unknown entries intact', async (t) => {
  const file = copy(t);
  const original = readFileSync(file);
  const slot = original.subarray(0, 256);
  const store = await SessionStore.open(file);
  await store.appendMessage(user('from Arbor'));
  const appended = readFileSync(file);
  assert.ok(appended.subarray(0, original.length).equals(original), 'append only adds bytes');
  await store.rewriteEntries((entries) => entries.filter((e) => e.id !== 'e12'));
  const rewritten = readFileSync(file);
  assert.ok(rewritten.subarray(0, 256).equals(slot), 'slot first, byte for byte');
  assert.ok(rewritten.includes('"type":"future_widget","id":"e15","parentId":"e14","timestamp":"2026-03-01T10:00:15.000Z","payload":{"x":2}'));
  const reopened = await SessionStore.open(file);
  assert.equal(reopened.getSessionName(), 'Fix the parser');
  assert.equal(reopened.entryCount, store.entryCount);
  await reopened.appendMessage(user('again'));
  assert.equal((await SessionStore.open(file)).entryCount, store.entryCount + 1);
});

test('session_info names win over omp titles', async (t) => {
  const file = copy(t);
  const store = await SessionStore.open(file);
  await store.appendSessionInfo('Mine');
  assert.equal(store.getSessionName(), 'Mine');
  assert.equal((await summarizeSession(file)).name, 'Mine');
});
