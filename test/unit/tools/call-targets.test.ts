// A file-writing call's targets are resolved once (paths.ts resolveCallTargets) and the writer opens that
// resolved path confined: a folder swapped for a link after the checks is refused, never followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveCallTargets } from '../../../src/agent/tools/paths';
import { call, ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

const { write, edit, read } = toolsByName();

test('resolveCallTargets: one entry per named target, refused ones carry the reason; none for other tools', async () => {
  const { workspace } = await makeSandbox({ 'a.txt': 'a\n' });
  const [inside, outside] = await Promise.all([
    resolveCallTargets(workspace, write.effect, { path: 'a.txt' }),
    resolveCallTargets(workspace, write.effect, { path: '/etc/passwd' }),
  ]);
  assert.equal(inside[0]!.path, 'a.txt');
  assert.equal(inside[0]!.resolved?.display, 'a.txt');
  assert.equal(outside[0]!.resolved, undefined);
  assert.match(String((outside[0]!.error as Error).message), /outside the workspace/);
  assert.deepEqual(await resolveCallTargets(workspace, read.effect, { path: 'a.txt' }), []);
});

test('the writer uses the checked resolution: a folder replaced by a link to outside after the checks is refused', async () => {
  const { ws, outside, workspace } = await makeSandbox({ 'sub/a.txt': 'old\n' });
  for (const [tool, args] of [[write, { path: 'sub/a.txt', content: 'pwned\n' }], [edit, { path: 'sub/a.txt', oldText: 'old', newText: 'pwned' }]] as const) {
    const targets = await resolveCallTargets(workspace, tool.effect, args);
    await rename(join(ws, 'sub'), join(ws, 'moved'));
    await symlink(outside, join(ws, 'sub'));
    await writeFile(join(outside, 'a.txt'), 'old\n');
    const out = await call(tool, args, ctxFor(workspace, { targets }));
    assert.equal(out.isError, true, textOf(out));
    assert.equal(await readFile(join(outside, 'a.txt'), 'utf8'), 'old\n', `${tool.name} wrote nothing outside`);
    await unlink(join(ws, 'sub'));
    await rename(join(ws, 'moved'), join(ws, 'sub'));
  }
});

test('the writer given the targets writes where they resolved', async () => {
  const { ws, workspace } = await makeSandbox({ 'sub/a.txt': 'old\n' });
  const args = { path: 'sub/a.txt', content: 'new\n' };
  const out = await call(write, args, ctxFor(workspace, { targets: await resolveCallTargets(workspace, write.effect, args) }));
  assert.equal(out.isError, false, textOf(out));
  assert.equal(await readFile(join(ws, 'sub/a.txt'), 'utf8'), 'new\n');
});
