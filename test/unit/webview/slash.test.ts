import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInput, SLASH_COMMANDS, suggestions } from '../../../webview/slash';

test('plain text is a prompt, kept exactly as typed (no trimming of what is sent)', () => {
  assert.deepEqual(parseInput('  fix the bug\n'), { kind: 'prompt', text: '  fix the bug\n' });
});

test('/compact with and without instructions', () => {
  assert.deepEqual(parseInput('/compact'), { kind: 'compact' });
  assert.deepEqual(parseInput('  /compact   '), { kind: 'compact' });
  assert.deepEqual(parseInput('/compact keep the API decisions\nand the tests'), { kind: 'compact', instructions: 'keep the API decisions\nand the tests' });
});

test('/tree, /new and /model', () => {
  assert.deepEqual(parseInput('/tree'), { kind: 'tree' });
  assert.deepEqual(parseInput('/new'), { kind: 'new' });
  assert.deepEqual(parseInput('/model'), { kind: 'model' });
});

test('unknown commands and paths are ordinary prompts', () => {
  assert.deepEqual(parseInput('/usr/bin/env is missing'), { kind: 'prompt', text: '/usr/bin/env is missing' });
  assert.deepEqual(parseInput('/deploy now'), { kind: 'prompt', text: '/deploy now' });
  assert.deepEqual(parseInput('please /compact'), { kind: 'prompt', text: 'please /compact' });
});

test('command names are case-sensitive (a capitalised word is prose)', () => {
  assert.deepEqual(parseInput('/Compact'), { kind: 'prompt', text: '/Compact' });
});

test('suggestions while typing the command word', () => {
  assert.deepEqual(suggestions('/').map((c) => c.name), SLASH_COMMANDS.map((c) => c.name));
  assert.deepEqual(suggestions('/c').map((c) => c.name), ['compact']);
  assert.deepEqual(suggestions('/T').map((c) => c.name), ['tree']);
  assert.deepEqual(suggestions('/x'), []);
  assert.deepEqual(suggestions('/compact '), [], 'no suggestions once arguments start');
  assert.deepEqual(suggestions('hello /c'), []);
});
