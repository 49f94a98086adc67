import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, ctxFor, makeSandbox, textOf, toolsByName } from './helpers';

const { read } = toolsByName();
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

test('read returns numbered lines, strips CRLF and BOM', async () => {
  const { workspace } = await makeSandbox({ 'a.txt': '\uFEFFone\r\ntwo\r\nthree\n' });
  const out = await call(read, { path: 'a.txt' }, ctxFor(workspace));
  assert.equal(out.isError, false);
  assert.equal(textOf(out), '    1\tone\n    2\ttwo\n    3\tthree');
});

test('read offset/limit window with a continuation hint', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
  const { workspace } = await makeSandbox({ 'a.txt': lines });
  const out = await call(read, { path: 'a.txt', offset: 10, limit: 3 }, ctxFor(workspace));
  assert.match(textOf(out), /^ {3}10\tline 10\n {3}11\tline 11\n {3}12\tline 12\n\n\[Showing lines 10-12 of 50\. Use offset=13 to continue\.\]$/);
  const tail = await call(read, { path: 'a.txt', offset: 49 }, ctxFor(workspace));
  assert.equal(textOf(tail), '   49\tline 49\n   50\tline 50');
  const past = await call(read, { path: 'a.txt', offset: 51 }, ctxFor(workspace));
  assert.equal(past.isError, true);
  assert.match(textOf(past), /past the end .* 50 lines/);
});

test('read of a 5 MB file is capped with a marker', async () => {
  const line = 'x'.repeat(99);
  const { workspace } = await makeSandbox({ 'big.txt': `${line}\n`.repeat(50_000) });
  const out = await call(read, { path: 'big.txt' }, ctxFor(workspace));
  const text = textOf(out);
  assert.equal(out.isError, false);
  assert.ok(Buffer.byteLength(text) <= 52 * 1024, `got ${Buffer.byteLength(text)} bytes`);
  const m = /\[Showing lines 1-(\d+) of 50000 \(50 KB limit\)\. Use offset=(\d+) to continue\.\]$/.exec(text);
  assert.ok(m, text.slice(-200));
  assert.equal(Number(m[2]), Number(m[1]) + 1);
  const many = Array.from({ length: 3000 }, (_, i) => String(i)).join('\n');
  const { workspace: ws2 } = await makeSandbox({ 'many.txt': many });
  assert.match(textOf(await call(read, { path: 'many.txt' }, ctxFor(ws2))), /\[Showing lines 1-2000 of 3000 \(2000 line limit\)\. Use offset=2001 to continue\.\]$/);
});

test('read returns images as ImageContent and refuses other binaries', async () => {
  const { workspace } = await makeSandbox({ 'pic.png': PNG, 'blob.bin': Buffer.from([1, 2, 0, 3, 4]), 'fake.png': Buffer.from([0, 1, 2, 3]) });
  const img = await call(read, { path: 'pic.png' }, ctxFor(workspace));
  assert.equal(img.isError, false);
  const block = img.content.find((c) => c.type === 'image');
  assert.ok(block && block.type === 'image');
  assert.equal(block.mimeType, 'image/png');
  assert.deepEqual(Buffer.from(block.data, 'base64'), PNG);
  const bin = await call(read, { path: 'blob.bin' }, ctxFor(workspace));
  assert.equal(bin.isError, true);
  assert.match(textOf(bin), /binary file/);
  assert.match(textOf(await call(read, { path: 'fake.png' }, ctxFor(workspace))), /not a valid image/);
});

test('read errors: missing file, folder, empty file, escapes', async () => {
  const { ws, workspace } = await makeSandbox({ 'dir/x': '', 'empty.txt': '' });
  assert.match(textOf(await call(read, { path: 'nope.txt' }, ctxFor(workspace))), /File not found: nope\.txt/);
  assert.match(textOf(await call(read, { path: 'dir' }, ctxFor(workspace))), /is a folder/);
  const empty = await call(read, { path: 'empty.txt' }, ctxFor(workspace));
  assert.equal(empty.isError, false);
  assert.match(textOf(empty), /empty/);
  const esc = await call(read, { path: '../outside/secret.txt' }, ctxFor(workspace));
  assert.equal(esc.isError, true);
  assert.match(textOf(esc), /outside the workspace/);
  assert.doesNotMatch(textOf(esc), /TOP SECRET/);
  await writeFile(join(ws, 'long.txt'), 'y'.repeat(10_000));
  assert.match(textOf(await call(read, { path: 'long.txt' }, ctxFor(workspace))), /line cut: 10000 characters/);
});
