import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInWorkspace } from '../../../src/agent/tools/paths';
import { ToolError } from '../../../src/agent/tools/types';
import { makeSandbox } from './helpers';

test('relative, dot and absolute-inside paths resolve with a workspace-relative display', async () => {
  const { ws, workspace } = await makeSandbox({ 'src/a.ts': 'x' });
  const rel = await resolveInWorkspace(workspace, 'src/a.ts');
  assert.equal(rel.absolute, join(ws, 'src/a.ts'));
  assert.equal(rel.display, 'src/a.ts');
  assert.equal((await resolveInWorkspace(workspace, join(ws, 'src/a.ts'))).display, 'src/a.ts');
  assert.equal((await resolveInWorkspace(workspace, '.')).display, '.');
  assert.equal((await resolveInWorkspace(workspace, 'src/../src/./a.ts')).display, 'src/a.ts');
  assert.equal((await resolveInWorkspace(workspace, '@src/a.ts')).display, 'src/a.ts');
});

test('escapes are rejected with a clear message', async () => {
  const { ws, outside, workspace } = await makeSandbox();
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  await symlink(outside, join(ws, 'linkdir'));
  await symlink(join(outside, 'not-yet.txt'), join(ws, 'dangling.txt'));
  for (const bad of ['../outside/secret.txt', join(outside, 'secret.txt'), 'link.txt', 'linkdir/new.txt', 'linkdir/deep/new.txt', 'dangling.txt', '/etc/passwd', 'a/../../x']) {
    await assert.rejects(resolveInWorkspace(workspace, bad), (e: unknown) => e instanceof ToolError && /outside the workspace/.test(e.message), bad);
  }
  await assert.rejects(resolveInWorkspace(workspace, 'a\0b'), /NUL byte/);
});

test('a symlink that stays inside the workspace is allowed', async () => {
  const { ws, workspace } = await makeSandbox({ 'real/f.txt': 'x' });
  await symlink(join(ws, 'real'), join(ws, 'alias'));
  const r = await resolveInWorkspace(workspace, 'alias/f.txt');
  assert.equal(r.absolute, join(ws, 'real/f.txt'));
  assert.equal(r.display, 'alias/f.txt');
});

test('multi-root: folder-name prefix selects the folder, display carries the prefix', async () => {
  const { base, ws } = await makeSandbox();
  const other = join(base, 'lib');
  await mkdir(other);
  const workspace = { folders: [{ name: 'ws', path: ws }, { name: 'lib', path: other }] };
  const r = await resolveInWorkspace(workspace, 'lib/index.ts');
  assert.equal(r.absolute, join(other, 'index.ts'));
  assert.equal(r.display, 'lib/index.ts');
  const first = await resolveInWorkspace(workspace, 'src/x.ts');
  assert.equal(first.absolute, join(ws, 'src/x.ts'));
  assert.equal(first.display, 'ws/src/x.ts');
  assert.equal((await resolveInWorkspace(workspace, join(other, 'a'))).display, 'lib/a');
  await assert.rejects(resolveInWorkspace(workspace, join(base, 'outside/secret.txt')), /outside the workspace/);
});

test('no workspace folder is a tool error', async () => {
  await assert.rejects(resolveInWorkspace({ folders: [] }, 'a'), /No workspace folder/);
});
