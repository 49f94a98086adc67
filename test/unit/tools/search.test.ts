import { test } from 'node:test';
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ripgrepOnPath } from '../../../src/agent/tools/ripgrep';
import { call, ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

const FILES = {
  '.gitignore': 'dist/\n*.log\n!keep.log\n',
  'src/a.ts': 'export const alpha = 1;\nconst beta = 2;\nconst gamma = alpha + beta;\n',
  'src/b.test.ts': 'import { alpha } from "./a";\n// ALPHA check\n',
  'src/deep/c.ts': 'line1\nline2\nneedle here\nline4\nline5\nneedle again\n',
  'src/sub/.gitignore': 'generated.ts\n',
  'src/sub/generated.ts': 'needle hidden by nested gitignore\n',
  'src/sub/kept.ts': 'fine\n',
  'dist/out.js': 'needle in ignored dist\n',
  'node_modules/pkg/index.js': 'needle in node_modules\n',
  'debug.log': 'needle in log\n',
  'keep.log': 'needle kept\n',
  'README.md': '# Title\n',
  'img.bin': Buffer.from([0, 1, 2, 110, 101, 101, 100, 108, 101]),
  '.hidden/h.ts': 'needle hidden dir\n',
};

test('ls lists sorted entries with folder slashes, limit and errors', async () => {
  const { ls } = toolsByName();
  const { ws, outside, workspace } = await makeSandbox({ 'b.txt': '', 'A.txt': '', 'dir/x': '', '.dot': '' });
  await symlink(outside, join(ws, 'outlink'));
  const out = await call(ls, {}, ctxFor(workspace));
  assert.equal(textOf(out), '.dot\nA.txt\nb.txt\ndir/\noutlink/');
  const limited = await call(ls, { path: '.', limit: 2 }, ctxFor(workspace));
  assert.match(textOf(limited), /^\.dot\nA\.txt\n\n\[Showing 2 of 5 entries/);
  assert.equal(textOf(await call(ls, { path: 'dir' }, ctxFor(workspace))), 'x');
  for (const path of ['..', '../outside', 'outlink', join(outside)]) {
    const bad = await call(ls, { path }, ctxFor(workspace));
    assert.equal(bad.isError, true, path);
    assert.match(textOf(bad), /outside the workspace/, path);
  }
  assert.match(textOf(await call(ls, { path: 'b.txt' }, ctxFor(workspace))), /is a file/);
  assert.match(textOf(await call(ls, { path: 'nope' }, ctxFor(workspace))), /not found/);
});

const engines: [string, string | false][] = [['node', false]];
const rg = ripgrepOnPath();
if (rg) engines.push(['ripgrep', rg]);

for (const [engine, option] of engines) {
  test(`find (${engine}) matches globs, honours .gitignore, skips node_modules/.git`, async () => {
    const { find } = toolsByName(option);
    const { workspace } = await makeSandbox(FILES);
    const ts = await call(find, { pattern: '*.ts' }, ctxFor(workspace));
    assert.equal(ts.isError, false, textOf(ts));
    assert.equal(textOf(ts), '.hidden/h.ts\nsrc/a.ts\nsrc/b.test.ts\nsrc/deep/c.ts\nsrc/sub/kept.ts');
    assert.equal((ts.details as { engine: string }).engine, engine);
    assert.equal(textOf(await call(find, { pattern: 'src/**/*.test.ts' }, ctxFor(workspace))), 'src/b.test.ts');
    assert.equal(textOf(await call(find, { pattern: '*.{log,md}' }, ctxFor(workspace))), 'README.md\nkeep.log');
    assert.equal(textOf(await call(find, { pattern: '*.ts', path: 'src/deep' }, ctxFor(workspace))), 'src/deep/c.ts');
    assert.equal(textOf(await call(find, { pattern: '**/c.ts', path: 'src' }, ctxFor(workspace))), 'src/deep/c.ts');
    const limited = await call(find, { pattern: '*.ts', limit: 2 }, ctxFor(workspace));
    assert.match(textOf(limited), /^[^\n]+\n[^\n]+\n\n\[Stopped at 2 results/);
    assert.match(textOf(await call(find, { pattern: '*.zzz' }, ctxFor(workspace))), /No files matching/);
  });

  test(`grep (${engine}) regex, literal, ignoreCase, glob, context, limit, binary skipped`, async () => {
    const { grep } = toolsByName(option);
    const { workspace } = await makeSandbox(FILES);
    const all = await call(grep, { pattern: 'needle' }, ctxFor(workspace));
    assert.equal(all.isError, false, textOf(all));
    assert.equal(textOf(all), '.hidden/h.ts:1: needle hidden dir\n--\nkeep.log:1: needle kept\n--\nsrc/deep/c.ts:3: needle here\n--\nsrc/deep/c.ts:6: needle again');
    assert.equal((all.details as { engine: string }).engine, engine);
    assert.equal(textOf(await call(grep, { pattern: 'alpha', ignoreCase: true, glob: '*.test.ts' }, ctxFor(workspace))), 'src/b.test.ts:1: import { alpha } from "./a";\nsrc/b.test.ts:2: // ALPHA check');
    assert.equal(textOf(await call(grep, { pattern: 'alpha + beta', literal: true }, ctxFor(workspace))), 'src/a.ts:3: const gamma = alpha + beta;');
    assert.equal(
      textOf(await call(grep, { pattern: 'needle', path: 'src/deep', context: 1 }, ctxFor(workspace))),
      'src/deep/c.ts-2- line2\nsrc/deep/c.ts:3: needle here\nsrc/deep/c.ts-4- line4\nsrc/deep/c.ts-5- line5\nsrc/deep/c.ts:6: needle again',
    );
    const limited = await call(grep, { pattern: 'needle', limit: 1 }, ctxFor(workspace));
    assert.match(textOf(limited), /^\.hidden\/h\.ts:1: needle hidden dir\n\n\[Stopped at 1 matches/);
    assert.equal(textOf(await call(grep, { pattern: 'const \\w+ = \\d', path: 'src/a.ts' }, ctxFor(workspace))), 'src/a.ts:1: export const alpha = 1;\nsrc/a.ts:2: const beta = 2;');
    assert.match(textOf(await call(grep, { pattern: 'zzzz' }, ctxFor(workspace))), /No matches/);
    const badRegex = await call(grep, { pattern: '(unclosed' }, ctxFor(workspace));
    assert.equal(badRegex.isError, true);
    assert.match(textOf(badRegex), /literal: true/);
  });

  test(`find/grep (${engine}) refuse paths outside the workspace`, async () => {
    const { find, grep } = toolsByName(option);
    const { ws, outside, workspace } = await makeSandbox(FILES);
    await symlink(outside, join(ws, 'outlink'));
    for (const path of ['..', '../outside', outside, 'outlink', 'outlink/sub', 'src\0x']) {
      for (const [tool, args] of [[find, { pattern: '*', path }], [grep, { pattern: 'SECRET', path }]] as const) {
        const out = await call(tool, args, ctxFor(workspace));
        assert.equal(out.isError, true, `${tool.name} ${path}`);
        assert.match(textOf(out), /outside the workspace|NUL byte/);
        assert.doesNotMatch(textOf(out), /TOP SECRET/);
      }
    }
    // A symlink inside the tree that points out is never followed while listing.
    assert.doesNotMatch(textOf(await call(grep, { pattern: 'SECRET' }, ctxFor(workspace))), /TOP SECRET/);
    const found = await call(find, { pattern: 'secret.txt' }, ctxFor(workspace));
    assert.equal((found.details as { count: number }).count, 0);
    assert.match(textOf(found), /^No files matching/);
  });
}
