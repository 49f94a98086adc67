// Issue #14 item 7 (CLI): `arbor-session` reads session files a repository or another tool wrote. Their
// content must not drive the terminal (escape sequences are shown escaped), and odd lines (200,000 levels
// of nesting, wrong types, entry types named like Object.prototype members) give a clear per-line report
// or a correct count, never "internal error".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { headerLine } from '../session-corpus';

const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (id: string, parentId: string | null, content: unknown) => ({ type: 'message', id, parentId, timestamp: at(1), message: { role: 'user', content, timestamp: 1 } });
const reply = (id: string, parentId: string, content: unknown[]) => ({
  type: 'message', id, parentId, timestamp: at(2),
  message: { role: 'assistant', content, api: 'x', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 2 },
});

function sessionFile(t: { after(fn: () => void): void }, lines: (unknown | string)[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-cli-hostile-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, [headerLine(), ...lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))].join('\n') + '\n');
  return file;
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

// ESC, CSI (7-bit and the C1 byte), OSC ending in BEL, a bare C1 control, a carriage return
const HOSTILE = 'ok\x1b]0;pwned\x07 \x1b[2J\x9b31m \x85 \rfake line';
const TERMINAL_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

test('terminal control sequences from session content are escaped in text output', async (t) => {
  const file = sessionFile(t, [
    user('u1', null, HOSTILE),
    reply('a1', 'u1', [{ type: 'text', text: HOSTILE }]),
    { type: 'label', id: 'l1', parentId: 'a1', timestamp: at(3), targetId: 'u1', label: HOSTILE },
    { type: 'session_info', id: 'i1', parentId: 'l1', timestamp: at(4), name: HOSTILE },
    { type: 'message', id: 'x\x1b[31m', parentId: 'i1', timestamp: at(5), message: { role: 'user', content: 'dup', timestamp: 5 } },
    { type: 'message', id: 'x\x1b[31m', parentId: 'i1', timestamp: at(5), message: { role: 'user', content: 'dup', timestamp: 5 } },
  ]);
  for (const args of [['tree', file], ['stats', file], ['stats', file, '--json'], ['context', file], ['export', file, '--format', 'md'], ['export', file, '--format', 'html']]) {
    const r = await cli(...args);
    assert.equal(r.code, 0, `${args[0]}: ${r.err}`);
    assert.doesNotMatch(r.out, TERMINAL_CONTROLS, `${args.join(' ')} writes raw control characters: ${JSON.stringify(r.out.match(TERMINAL_CONTROLS))}`);
    assert.doesNotMatch(r.err, TERMINAL_CONTROLS, `${args.join(' ')} writes raw control characters to stderr`);
  }
  const tree = await cli('tree', file);
  assert.match(tree.out, /\\u001b\]0;pwned\\u0007/, 'the escape is shown, not dropped');
  const json = await cli('context', file);
  assert.equal(JSON.parse(json.out).messages[0].content, HOSTILE, 'JSON output still decodes to the exact text');
});

test('200,000 levels of nesting on a line: a per-line report, the rest of the session works', async (t) => {
  const deepArray = '['.repeat(200_000) + ']'.repeat(200_000);
  const deepField = JSON.stringify(user('u2', 'u1', 'deep')).replace('"deep"', `"deep","extra":${deepArray}`);
  const file = sessionFile(t, [user('u1', null, 'hello'), deepArray, deepField, user('u3', 'u1', 'after')]);
  for (const args of [['stats', file], ['stats', file, '--json'], ['tree', file], ['context', file], ['export', file, '--format', 'md'], ['export', file, '--format', 'html']]) {
    const r = await cli(...args);
    assert.doesNotMatch(r.err, /internal error/, `${args.join(' ')}: ${r.err.slice(0, 300)}`);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err.slice(0, 300)}`);
    assert.match(r.err, /:4: [a-z-]+: .*nest/i, `${args.join(' ')}: line 4 not reported: ${r.err.slice(0, 300)}`);
  }
  const stats = JSON.parse((await cli('stats', file, '--json')).out);
  // Line 3 is not a session entry at all: skipped. Line 4's head (type, id, parent, time) is intact: it is
  // kept in the tree as an unreadable entry (ignored in context, its bytes written back), not dropped.
  assert.equal(stats.entries, 3);
  assert.equal(stats.byType.invalid_entry, 1, JSON.stringify(stats.byType));
});

test('wrong types (text: 12345) in export: shown as unreadable and reported per line', async (t) => {
  const file = sessionFile(t, [
    user('u1', null, [{ type: 'text', text: 12345 }]),
    reply('a1', 'u1', [{ type: 'text', text: 12345 }, { type: 'thinking', thinking: { x: 1 } }, { type: 'toolCall', id: 'c', name: 7 }]),
    { type: 'compaction', id: 'c1', parentId: 'a1', timestamp: at(3), summary: 'sum', firstKeptEntryId: 'a1', tokensBefore: 1, shortSummary: 9 },
  ]);
  for (const format of ['html', 'md']) {
    const r = await cli('export', file, '--format', format);
    assert.equal(r.code, 0, `${format}: ${r.err}`);
    assert.match(r.out, /unreadable content: text is a number/);
    assert.match(r.err, /:3: .*text is a number/, `${format}: no per-line report: ${r.err}`);
  }
});

test('entry types named constructor, toString, __proto__ are counted correctly', async (t) => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
  const file = sessionFile(t, [user('u1', null, 'hi'), ...names.map((type, i) => ({ type, id: `t${i}`, parentId: 'u1', timestamp: at(2) }))]);
  const r = await cli('stats', file, '--json');
  assert.equal(r.code, 0, r.err);
  const stats = JSON.parse(r.out);
  const counts = Object.fromEntries(Object.entries(stats.byType as Record<string, unknown>));
  for (const name of names) assert.equal(Object.hasOwn(stats.byType, name) ? stats.byType[name] : undefined, 1, `${name}: ${JSON.stringify(counts)}`);
  const text = await cli('stats', file);
  for (const name of names) assert.match(text.out, new RegExp(`^  ${name} +1$`, 'm'), `${name} in: ${text.out}`);
});
