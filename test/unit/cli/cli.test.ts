// arbor-session CLI, run as a real process through tsx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: root });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const lines = [
  { type: 'session', version: 3, id: 's1', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/w' },
  { type: 'message', id: 'a1', parentId: null, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'hello <b>&', timestamp: 1 } },
  { type: 'message', id: 'a2', parentId: 'a1', timestamp: '2025-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }, { type: 'toolCall', id: 't', name: 'read', arguments: { path: 'x' } }], api: 'x', provider: 'p', model: 'm', usage, stopReason: 'toolUse', timestamp: 2 } },
  { type: 'message', id: 'a3', parentId: 'a2', timestamp: '2025-01-01T00:00:03.000Z', message: { role: 'toolResult', toolCallId: 't', toolName: 'read', content: [{ type: 'text', text: '<script>alert(1)</script>' }], isError: false, timestamp: 3 } },
  { type: 'compaction', id: 'a4', parentId: 'a3', timestamp: '2025-01-01T00:00:04.000Z', summary: 'SUM', firstKeptEntryId: 'a3', tokensBefore: 10 },
  { type: 'message', id: 'b1', parentId: 'a1', timestamp: '2025-01-01T00:00:05.000Z', message: { role: 'user', content: 'branch', timestamp: 5 } },
  { type: 'label', id: 'b2', parentId: 'b1', timestamp: '2025-01-01T00:00:06.000Z', targetId: 'a1', label: 'start' },
];

function fixture(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

test('context: default leaf is the last line; --leaf ID; --leaf null; pi wrapper text', (t) => {
  const file = fixture(t);
  const def = cli('context', file);
  assert.equal(def.code, 0, def.err);
  const parsed = JSON.parse(def.out);
  assert.equal(parsed.leafId, 'b2');
  assert.deepEqual(parsed.messages.map((m: { content: unknown }) => m.content), ['hello <b>&', 'branch']);
  const at = JSON.parse(cli('context', file, '--leaf', 'a4').out);
  assert.equal(at.leafId, 'a4');
  assert.equal(at.messages.length, 2);
  assert.equal(at.messages[0].content[0].text, 'The conversation history before this point was compacted into the following summary:\n\n<summary>\nSUM\n</summary>');
  assert.equal(at.messages[1].role, 'toolResult');
  assert.deepEqual(JSON.parse(cli('context', file, '--leaf', 'null').out), { leafId: null, messages: [] });
});

test('tree marks the active path, labels and the leaf', (t) => {
  const r = cli('tree', fixture(t));
  assert.equal(r.code, 0, r.err);
  const out = r.out.split('\n');
  assert.match(out.find((l) => l.includes('a1'))!, /^\* a1 user \[start\]/);
  assert.match(out.find((l) => l.includes('b2'))!, /^\*.*b2 label.*<- leaf/);
  assert.match(out.find((l) => l.includes('a3'))!, /^ {3}.*a3 toolResult/);
});

test('stats --json counts types, branches, compactions and tokens', (t) => {
  const r = cli('stats', fixture(t), '--json');
  assert.equal(r.code, 0, r.err);
  const s = JSON.parse(r.out);
  assert.equal(s.entries, 6);
  assert.deepEqual(s.byType, { message: 4, compaction: 1, label: 1 });
  assert.equal(s.branches, 2);
  assert.equal(s.compactions, 1);
  assert.ok(s.estimatedTokensAll > 0 && s.estimatedTokensContext > 0);
});

test('export md and html (html escapes everything)', (t) => {
  const file = fixture(t);
  const md = cli('export', file, '--format', 'md', '--leaf', 'a4');
  assert.equal(md.code, 0, md.err);
  assert.match(md.out, /## User\n\nhello <b>&/);
  assert.match(md.out, /## Compaction summary/);
  const html = cli('export', file, '--format', 'html', '--leaf', 'a4');
  assert.equal(html.code, 0, html.err);
  assert.ok(!html.out.includes('<script>'));
  assert.ok(!html.out.includes('<b>'));
  assert.ok(html.out.includes('&#60;script&#62;'));
});

test('bad input: clear message, non-zero exit, no stack trace', (t) => {
  const file = fixture(t);
  const cases = [
    cli('context', join(tmpdir(), 'does-not-exist.jsonl')),
    cli('context', file, '--leaf', 'zzz'),
    cli('export', file, '--format', 'pdf'),
    cli('nope'),
    cli('context'),
    cli('tree', file, '--bogus'),
  ];
  const bad = join(file, '..', 'bad.jsonl');
  writeFileSync(bad, 'not a header\n');
  cases.push(cli('stats', bad));
  for (const r of cases) {
    assert.notEqual(r.code, 0);
    assert.ok(r.err.trim().length > 0);
    assert.ok(!/\n\s+at /.test(r.err), `stack trace in: ${r.err}`);
  }
});
