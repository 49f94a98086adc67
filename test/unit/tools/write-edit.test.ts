import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { call, ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

const { write, edit } = toolsByName();

test('write creates parent folders and reports bytes and previous content', async () => {
  const { ws, workspace } = await makeSandbox({ 'old.txt': 'before' });
  const created = await call(write, { path: 'deep/er/new.txt', content: 'héllo' }, ctxFor(workspace));
  assert.equal(created.isError, false);
  assert.match(textOf(created), /Created deep\/er\/new\.txt .*6 bytes/);
  assert.equal(await readFile(join(ws, 'deep/er/new.txt'), 'utf8'), 'héllo');
  assert.deepEqual(created.details, { path: 'deep/er/new.txt', previousContent: null, newContent: 'héllo', bytes: 6 });
  const replaced = await call(write, { path: 'old.txt', content: 'after' }, ctxFor(workspace));
  assert.equal((replaced.details as { previousContent: string }).previousContent, 'before');
  assert.equal(await readFile(join(ws, 'old.txt'), 'utf8'), 'after');
});

test('write refuses folders, parents that are files, and every escape', async () => {
  const { ws, outside, workspace } = await makeSandbox({ 'dir/x': '', 'file.txt': '' });
  await symlink(outside, join(ws, 'linkdir'));
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  await symlink(join(outside, 'created-by-dangling.txt'), join(ws, 'dangling.txt'));
  assert.match(textOf(await call(write, { path: 'dir', content: 'x' }, ctxFor(workspace))), /is a folder/);
  assert.match(textOf(await call(write, { path: 'file.txt/sub.txt', content: 'x' }, ctxFor(workspace))), /parent of it is a file/);
  for (const path of ['../outside/x.txt', join(outside, 'x.txt'), 'linkdir/new.txt', 'linkdir/a/b/new.txt', 'link.txt', 'dangling.txt', 'a\0b']) {
    const out = await call(write, { path, content: 'pwned' }, ctxFor(workspace));
    assert.equal(out.isError, true, path);
    assert.match(textOf(out), /outside the workspace|NUL byte/, path);
  }
  assert.equal(await readFile(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  await assert.rejects(readFile(join(outside, 'new.txt')));
  await assert.rejects(readFile(join(outside, 'created-by-dangling.txt')));
});

test('edit replaces a unique match and returns before/after', async () => {
  const { ws, workspace } = await makeSandbox({ 'a.ts': 'const a = 1;\nconst b = 2;\n' });
  const out = await call(edit, { path: 'a.ts', oldText: 'const b = 2;', newText: 'const b = 3;\nconst c = $&;' }, ctxFor(workspace));
  assert.equal(out.isError, false, textOf(out));
  assert.match(textOf(out), /line 2/);
  assert.equal(await readFile(join(ws, 'a.ts'), 'utf8'), 'const a = 1;\nconst b = 3;\nconst c = $&;\n');
  const d = out.details as { before: string; after: string };
  assert.equal(d.before, 'const a = 1;\nconst b = 2;\n');
  assert.equal(d.after, 'const a = 1;\nconst b = 3;\nconst c = $&;\n');
});

test('edit requires exactly one match', async () => {
  const { ws, workspace } = await makeSandbox({ 'a.ts': 'x = 1\ny = 2\nx = 1\n', 'b.py': 'def f():\n    return 1\n' });
  const many = await call(edit, { path: 'a.ts', oldText: 'x = 1', newText: 'x = 9' }, ctxFor(workspace));
  assert.equal(many.isError, true);
  assert.match(textOf(many), /occurs 2 times .*lines 1, 3.*more surrounding lines/s);
  const none = await call(edit, { path: 'a.ts', oldText: 'z = 1', newText: 'q' }, ctxFor(workspace));
  assert.equal(none.isError, true);
  assert.match(textOf(none), /not found/);
  const ws1 = await call(edit, { path: 'b.py', oldText: 'def f():\n  return 1', newText: 'x' }, ctxFor(workspace));
  assert.match(textOf(ws1), /only if whitespace is ignored/);
  assert.match(textOf(ws1), /\t {4}return 1/);
  const near = await call(edit, { path: 'b.py', oldText: 'def g():\n    return 1', newText: 'x' }, ctxFor(workspace));
  assert.match(textOf(near), /closest match .* line 1/);
  assert.equal(await readFile(join(ws, 'a.ts'), 'utf8'), 'x = 1\ny = 2\nx = 1\n');
  assert.match(textOf(await call(edit, { path: 'a.ts', oldText: 'y = 2', newText: 'y = 2' }, ctxFor(workspace))), /identical/);
  assert.match(textOf(await call(edit, { path: 'missing.ts', oldText: 'a', newText: 'b' }, ctxFor(workspace))), /File not found/);
});

test('edit preserves CRLF line endings and the BOM', async () => {
  const { ws, workspace } = await makeSandbox({ 'w.cs': '\uFEFFline1\r\nline2\r\nline3\r\n' });
  const out = await call(edit, { path: 'w.cs', oldText: 'line1\nline2', newText: 'first\nsecond\nextra' }, ctxFor(workspace));
  assert.equal(out.isError, false, textOf(out));
  assert.equal(await readFile(join(ws, 'w.cs'), 'utf8'), '\uFEFFfirst\r\nsecond\r\nextra\r\nline3\r\n');
  assert.deepEqual([(out.details as { lineEnding: string }).lineEnding, (out.details as { bom: boolean }).bom], ['crlf', true]);
});

test('edit refuses escapes and binary files', async () => {
  const { ws, outside, workspace } = await makeSandbox({ 'b.bin': Buffer.from([0, 1, 2, 65]) });
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  for (const path of ['../outside/secret.txt', join(outside, 'secret.txt'), 'link.txt']) {
    const out = await call(edit, { path, oldText: 'TOP', newText: 'NOT' }, ctxFor(workspace));
    assert.match(textOf(out), /outside the workspace/, path);
  }
  assert.equal(await readFile(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  assert.match(textOf(await call(edit, { path: 'b.bin', oldText: 'A', newText: 'B' }, ctxFor(workspace))), /binary/);
});
