// Issue #14 item 4: files change exactly, and only inside the workspace. `edit` must leave every byte it
// was not asked to change as it was (a Latin-1 file, mixed line endings) or refuse clearly; binary files
// are refused. A racer process swapping a symlink (to a file or a folder outside the workspace) in and
// out under the path the tools use must never let a write land outside or a read return outside content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../../../src/agent/tools/index';
import { runTool, type AgentTool, type ToolOutput } from '../../../src/agent/tools/types';
import { reportFigures, trials } from '../profile';
import { startRacer } from './racer';

const SECRET = 'OUTSIDE-SECRET-51d2';

function sandbox(t: { after(fn: () => void): void }) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-exact-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  const tools = Object.fromEntries(createTools({ ripgrep: false }).map((tool) => [tool.name, tool])) as Record<string, AgentTool>;
  const ctx = { workspace: { folders: [{ name: 'ws', path: ws }] }, signal: new AbortController().signal };
  const run = (name: string, args: unknown) => runTool(tools[name], args, ctx);
  const withRg = Object.fromEntries(createTools({ ripgrep: undefined, only: ['grep', 'find'] }).map((tool) => [tool.name, tool]));
  /** grep/find with ripgrep when it is on PATH (it searches the folder it is started in) */
  const runRg = (name: 'grep' | 'find', args: unknown) => runTool(withRg[name], args, ctx);
  return { base, ws, outside, run, runRg };
}

const textOf = (o: ToolOutput) => o.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const figures: Record<string, number> = {};

test('edit of a Latin-1 file changes only the replaced bytes', async (t) => {
  const { ws, run } = sandbox(t);
  const file = join(ws, 'legacy.txt');
  const before = Buffer.from('caf\xe9 = "cr\xe8me"\nvalue = 2\n\xff\xfe end\n', 'latin1');
  writeFileSync(file, before);
  const out = await run('edit', { path: 'legacy.txt', oldText: 'value = 2', newText: 'value = 3' });
  assert.equal(out.isError, false, textOf(out));
  const expected = Buffer.from('caf\xe9 = "cr\xe8me"\nvalue = 3\n\xff\xfe end\n', 'latin1');
  assert.deepEqual(readFileSync(file), expected, `bytes after edit: ${readFileSync(file).toString('hex')}`);
});

test('edit refuses text that only matches through undecodable bytes, and changes nothing', async (t) => {
  const { ws, run } = sandbox(t);
  const file = join(ws, 'legacy.txt');
  const before = Buffer.from('caf\xe9 = 1\n', 'latin1');
  writeFileSync(file, before);
  const out = await run('edit', { path: 'legacy.txt', oldText: 'caf\uFFFD = 1', newText: 'cafe = 1' });
  assert.equal(out.isError, true, `edit through U+FFFD reported success: ${textOf(out)}`);
  assert.match(textOf(out), /UTF-8/);
  assert.deepEqual(readFileSync(file), before);
});

test('edit keeps the line endings of lines it did not touch (mixed CRLF/LF)', async (t) => {
  const { ws, run } = sandbox(t);
  const file = join(ws, 'mixed.txt');
  writeFileSync(file, 'one\r\ntwo\r\nthree\nfour\r\n');
  const out = await run('edit', { path: 'mixed.txt', oldText: 'two', newText: 'TWO' });
  assert.equal(out.isError, false, textOf(out));
  assert.equal(readFileSync(file, 'latin1'), 'one\r\nTWO\r\nthree\nfour\r\n');
});

test('binary files are refused by edit and read with a clear notice', async (t) => {
  const { ws, run } = sandbox(t);
  const file = join(ws, 'blob.bin');
  const before = Buffer.from([0x41, 0x42, 0x00, 0x43, 0x0a, 0x41, 0x42]);
  writeFileSync(file, before);
  const edited = await run('edit', { path: 'blob.bin', oldText: 'AB', newText: 'XY' });
  assert.equal(edited.isError, true);
  assert.match(textOf(edited), /binary/);
  assert.deepEqual(readFileSync(file), before);
  const read = await run('read', { path: 'blob.bin' });
  assert.equal(read.isError, true);
  assert.match(textOf(read), /binary/);
});

async function race(t: { after(fn: () => void): void }, kind: 'file' | 'dir') {
  const { ws, outside, run, runRg } = sandbox(t);
  const secretFile = join(outside, kind === 'dir' ? 'f.txt' : 'secret.txt');
  writeFileSync(secretFile, `${SECRET}\n`);
  writeFileSync(join(outside, 'outside-only.txt'), 'a name that must not be listed\n');
  const linkTarget = kind === 'dir' ? outside : secretFile;
  const path = kind === 'dir' ? 'd/f.txt' : 'victim.txt';
  const stop = startRacer(join(ws, kind === 'dir' ? 'd' : 'victim.txt'), linkTarget, kind);
  t.after(stop);
  const rounds = trials(1000, 5000);
  let writeEscapes = 0;
  let readEscapes = 0;
  let editEscapes = 0;
  let listEscapes = 0;
  for (let i = 0; i < rounds; i++) {
    await run('write', { path, content: `PWNED ${i}\n` });
    if (readFileSync(secretFile, 'utf8') !== `${SECRET}\n`) {
      writeEscapes++;
      writeFileSync(secretFile, `${SECRET}\n`);
    }
    const read = await run('read', { path });
    if (textOf(read).includes(SECRET)) readEscapes++;
    // ripgrep searches the folder it starts in: every 10th round, a racing search (spawning rg is slow).
    if (kind === 'dir' && i % 10 === 0) {
      const searched = await runRg('grep', { pattern: 'OUTSIDE', path: 'd' });
      if (textOf(searched).includes(SECRET)) readEscapes++;
    }
    if (kind === 'dir' && textOf(await run('ls', { path: 'd' })).includes('outside-only')) listEscapes++;
    await run('edit', { path, oldText: SECRET, newText: 'EDITED' });
    if (readFileSync(secretFile, 'utf8') !== `${SECRET}\n`) {
      editEscapes++;
      writeFileSync(secretFile, `${SECRET}\n`);
    }
  }
  stop();
  const stray = kind === 'dir' ? [] : ['victim.txt'].filter((name) => existsSync(join(outside, name)));
  figures[`${kind}Rounds`] = rounds;
  figures[`${kind}Escapes`] = writeEscapes + readEscapes + editEscapes + listEscapes;
  assert.deepEqual(
    { writeEscapes, readEscapes, editEscapes, listEscapes, stray },
    { writeEscapes: 0, readEscapes: 0, editEscapes: 0, listEscapes: 0, stray: [] },
  );
}

test('a symlink swapped in for a file under racing writes, reads and edits: 0 escapes', async (t) => {
  await race(t, 'file');
});

test('a symlink swapped in for a folder under racing writes, reads and edits: 0 escapes', async (t) => {
  await race(t, 'dir');
});

test('figures', () => {
  reportFigures('attacks/file-exactness', figures);
});
