import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IgnoreFile, compileGlob, isIgnored } from '../../../src/agent/tools/glob';

test('compileGlob: names at any depth, anchored paths, **, ?, classes, braces', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/test/*.js', 'test/a.js', true],
    ['**/test/*.js', 'a/test/b.js', true],
    ['src/**', 'src/a/b', true],
    ['a?.md', 'ab.md', true],
    ['a?.md', 'a/.md', false],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['*.{js,ts}', 'x/y.js', true],
    ['*.{js,ts}', 'y.py', false],
    ['a+b(c).txt', 'a+b(c).txt', true],
    ['./src/*.ts', 'src/a.ts', true],
  ];
  for (const [glob, path, expected] of cases) assert.equal(compileGlob(glob)(path), expected, `${glob} vs ${path}`);
  assert.throws(() => compileGlob('{a,b'), /unclosed/);
});

test('gitignore basics: dir-only, negation, anchoring, nested files', () => {
  const root = new IgnoreFile('', '# comment\n\ndist/\n*.log\n!keep.log\n/top.txt\ndocs/*.tmp\n');
  const nested = new IgnoreFile('pkg', 'gen.ts\n');
  const stack = [root, nested];
  assert.equal(isIgnored(stack, 'dist', true), true);
  assert.equal(isIgnored(stack, 'dist', false), false);
  assert.equal(isIgnored(stack, 'a/b.log', false), true);
  assert.equal(isIgnored(stack, 'keep.log', false), false);
  assert.equal(isIgnored(stack, 'top.txt', false), true);
  assert.equal(isIgnored(stack, 'x/top.txt', false), false);
  assert.equal(isIgnored(stack, 'docs/a.tmp', false), true);
  assert.equal(isIgnored(stack, 'pkg/gen.ts', false), true);
  assert.equal(isIgnored(stack, 'other/gen.ts', false), false);
});

test('compileGlob: nested braces, escapes, ranges, `**` inside a segment, `**/` matching nothing', () => {
  const cases: [string, string, boolean][] = [
    ['*.{ts,{m,c}js}', 'a.mjs', true],
    ['*.{ts,{m,c}js}', 'a.js', false],
    ['src/{a,b/c}/x', 'src/b/c/x', true],
    ['[a-c]?.txt', 'bz.txt', true],
    ['[a-c]?.txt', 'dz.txt', false],
    ['[!a-c].txt', '/.txt', false],
    ['x/a**b', 'x/a/y/b', true],
    ['src/**/x.ts', 'src/x.ts', true],
    ['src/**/x.ts', 'srcx.ts', false],
    ['**', 'a/b/c', true],
    ['{,x}y', 'y', true],
    ['[abc', '[abc', true],
  ];
  for (const [glob, path, expected] of cases) assert.equal(compileGlob(glob)(path), expected, `${glob} vs ${path}`);
  const ignore = new IgnoreFile('', 'a\\*b\n');
  assert.equal(ignore.test('a*b', false), true);
  assert.equal(ignore.test('axb', false), undefined);
});

test('glob matching is linear: `**a**a…c` against a 4,000-character path takes milliseconds', () => {
  const pattern = `${'**a'.repeat(300)}**c`;
  const path = `${'a'.repeat(200)}/`.repeat(20);
  const started = performance.now();
  assert.equal(compileGlob(pattern)(path), false);
  const prefix = `${'a'.repeat(100)}/`.repeat(7);
  assert.equal(compileGlob(`${prefix}**${'a*'.repeat(100)}`)(`${prefix}${'a'.repeat(300)}`), true);
  const ms = performance.now() - started;
  assert.ok(ms < 2000, `took ${ms} ms`);
});
