// Unit tests for confined-open.ts (no re-resolution between the workspace check and the open),
// exact-splice.ts (byte-exact edits) and bundledRipgrep (VS Code's rg found under appRoot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openConfined, openConfinedForWrite } from '../../../src/agent/tools/confined-open';
import { planSplice } from '../../../src/agent/tools/exact-splice';
import { bundledRipgrep } from '../../../src/agent/tools/ripgrep';
import { ToolError } from '../../../src/agent/tools/types';
import { makeSandbox } from './helpers';

test('openConfined refuses a symlink in the final component and in a folder on the way', async () => {
  const { ws, outside } = await makeSandbox({ 'real/file.txt': 'inside\n' });
  await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  await symlink(outside, join(ws, 'dirlink'));
  // The paths are given as if the check had approved them (a swap after the check looks exactly so).
  for (const rel of ['link.txt', 'dirlink/secret.txt']) {
    const target = { root: ws, absolute: join(ws, rel), display: rel };
    await assert.rejects(openConfined(target, 'read'), (error: unknown) => error instanceof ToolError && /changed while|symbolic link/.test(error.message), rel);
    await assert.rejects(openConfinedForWrite(target), ToolError, rel);
  }
  assert.equal(await readFile(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  const ok = await openConfined({ root: ws, absolute: join(ws, 'real/file.txt'), display: 'real/file.txt' }, 'read');
  await ok.handle.close();
  assert.equal(ok.stats.size, 7);
});

test('openConfinedForWrite creates missing folders and the file, and reports it created', async () => {
  const { ws } = await makeSandbox();
  const opened = await openConfinedForWrite({ root: ws, absolute: join(ws, 'a/b/new.txt'), display: 'a/b/new.txt' });
  await opened.handle.close();
  assert.equal(opened.created, true);
  const again = await openConfinedForWrite({ root: ws, absolute: join(ws, 'a/b/new.txt'), display: 'a/b/new.txt' });
  await again.handle.close();
  assert.equal(again.created, false);
});

test('openConfined refuses a FIFO without blocking', { skip: process.platform === 'win32' ? 'no FIFOs' : false }, async () => {
  const { ws } = await makeSandbox();
  assert.equal(spawnSync('mkfifo', [join(ws, 'pipe')]).status, 0);
  const target = { root: ws, absolute: join(ws, 'pipe'), display: 'pipe' };
  await assert.rejects(openConfined(target, 'read'), /not a regular file/);
  await assert.rejects(openConfinedForWrite(target), /not a regular file/);
});

test('planSplice keeps every untouched byte: BOM, CRLF, lone LF, invalid UTF-8', () => {
  const raw = Buffer.concat([Buffer.from('\uFEFFa\r\nb\nc\r\n', 'utf8'), Buffer.from([0xff, 0x0a])]);
  const plan = planSplice(raw, 'b\nc', 'B\nC');
  assert.equal(plan.kind, 'ok');
  if (plan.kind !== 'ok') return;
  const expected = Buffer.concat([Buffer.from('\uFEFFa\r\nB\r\nC\r\n', 'utf8'), Buffer.from([0xff, 0x0a])]);
  assert.deepEqual(plan.updated, expected);
  assert.equal(plan.line, 2);
  assert.equal(planSplice(raw, 'c\n\uFFFD', 'x').kind, 'lossy');
  assert.equal(planSplice(raw, 'zzz', 'x').kind, 'missing');
  assert.equal(planSplice(Buffer.from('x\nx\n'), 'x', 'y').kind, 'ambiguous');
  assert.equal(planSplice(raw, 'a', 'a').kind, 'identical');
});

test('planSplice replaces multi-byte UTF-8 text exactly', () => {
  const plan = planSplice(Buffer.from('größe = 1\nnaïve = 2\n', 'utf8'), 'naïve = 2', 'naïve = 3 ✓');
  assert.equal(plan.kind === 'ok' && plan.updated.toString('utf8'), 'größe = 1\nnaïve = 3 ✓\n');
});

test('bundledRipgrep finds rg under appRoot (node_modules or node_modules.asar.unpacked), else undefined', async () => {
  const { base } = await makeSandbox();
  const name = process.platform === 'win32' ? 'rg.exe' : 'rg';
  assert.equal(bundledRipgrep(base), undefined);
  assert.equal(bundledRipgrep(undefined), undefined);
  const dir = join(base, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), '#!/bin/sh\n');
  await chmod(join(dir, name), 0o755);
  assert.equal(bundledRipgrep(base), join(dir, name));
});
