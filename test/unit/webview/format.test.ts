import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstLine, formatCost, formatTime, formatTokens, keyArgument, safeJson, sessionTitle } from '../../../webview/format';

test('formatTokens: plain, k and M with one decimal below 100k / 10M', () => {
  assert.equal(formatTokens(0), '0');
  assert.equal(formatTokens(999.6), '1000');
  assert.equal(formatTokens(1000), '1.0k');
  assert.equal(formatTokens(42_000), '42.0k');
  assert.equal(formatTokens(128_000), '128k');
  assert.equal(formatTokens(1_500_000), '1.5M');
  assert.equal(formatTokens(12_000_000), '12M');
});

test('formatCost: $0, four decimals under a cent, two above', () => {
  assert.equal(formatCost(0), '$0');
  assert.equal(formatCost(0.0012), '$0.0012');
  assert.equal(formatCost(0.01), '$0.01');
  assert.equal(formatCost(3.456), '$3.46');
});

test('firstLine: the first non-blank-led line, truncated with an ellipsis', () => {
  assert.equal(firstLine('\n\n  hello\nworld'), 'hello');
  assert.equal(firstLine('abcdef', 4), 'abc…');
  assert.equal(firstLine('abcd', 4), 'abcd');
  assert.equal(firstLine(''), '');
});

test('formatTime: empty for an unknown (0) timestamp, text otherwise', () => {
  assert.equal(formatTime(0), '');
  assert.match(formatTime(Date.parse('2025-02-01T09:00:00Z')), /\d/);
});

test('keyArgument: path, command, pattern… in that order; first line, further lines announced', () => {
  assert.equal(keyArgument({ command: 'ls', path: 'src/a.ts' }), 'src/a.ts');
  assert.equal(keyArgument({ command: 'npm test\nnpm run build' }), 'npm test … (+1 line)');
  assert.equal(keyArgument({ command: 'a\nb\nc\n' }), 'a … (+2 lines)');
  assert.equal(keyArgument({ command: 'rm\u202Efdp.exe' }), 'rm⟨U+202E⟩fdp.exe');
  assert.equal(keyArgument({ pattern: 'TODO' }), 'TODO');
  assert.equal(keyArgument({ path: '', content: 'x' }), '');
  assert.equal(keyArgument({ path: 42 }), '');
});

test('safeJson: pretty JSON, and a string for values JSON cannot hold', () => {
  assert.equal(safeJson({ a: 1 }), '{\n  "a": 1\n}');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(safeJson(cyclic), '[object Object]');
  assert.equal(safeJson(undefined), '');
});

test('sessionTitle: the name; a session without one (new, nothing sent) is "New session", never its file name', () => {
  const base = { extensionVersion: '1', workspaceFolders: [], workspaceTrusted: true, modelLabel: null };
  assert.equal(sessionTitle({ ...base, sessionName: 'Fix the build', sessionFile: '/s/2026_abc.jsonl' }), 'Fix the build');
  assert.equal(sessionTitle({ ...base, sessionName: null, sessionFile: '/s/2026_abc.jsonl' }), 'New session');
  assert.equal(sessionTitle({ ...base }), 'New session');
});
