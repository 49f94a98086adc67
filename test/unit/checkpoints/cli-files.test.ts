// `arbor-session files`, run in-process (the command module; main.ts only routes to it): the state at a node and the diff between two branches,
// from the session file alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashContent } from '../../../src/checkpoints';
import { CliError } from '../../../src/cli/command';
import { commands } from '../../../src/cli/commands';
import { filesCommand } from '../../../src/cli/commands/files';
import { fixture, turn } from './helpers';

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const io = { out: (text: string) => (out += `${text}\n`), err: (text: string) => (err += `${text}\n`) };
  let code: number;
  try {
    code = await filesCommand.run(args, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err += error.message;
    code = 2;
  }
  return { code, out, err };
}

const short = (content: string) => hashContent(Buffer.from(content)).slice(0, 12);

test('files lists the state at a node; --diff compares two branches', async (t) => {
  const f = await fixture();
  t.after(() => f.cleanup());
  await f.store.appendMessage({ role: 'user', content: 'x', timestamp: 1 });
  const base = await turn(f, { 'a.txt': 'one\n', 'gone.txt': 'bye\n' });
  const left = await turn(f, { 'a.txt': 'left\n', 'l.txt': 'L\n', 'gone.txt': null });
  f.store.branch(base!);
  const right = await turn(f, { 'a.txt': 'right\n', 'r\u001b[31m.txt': 'R\n' });

  const atLeft = await cli(f.store.file, '--leaf', left!);
  assert.equal(atLeft.code, 0, atLeft.err);
  assert.deepEqual(atLeft.out.trimEnd().split('\n').map((l) => l.split(/\s+/).filter(Boolean)), [
    ['file', '5', short('left\n'), 'ws/a.txt'],
    ['deleted', 'ws/gone.txt'],
    ['file', '2', short('L\n'), 'ws/l.txt'],
  ]);

  const diff = await cli(f.store.file, '--diff', left!, right!);
  assert.equal(diff.code, 0, diff.err);
  assert.equal(diff.out, ['M ws/a.txt', 'A ws/gone.txt', 'D ws/l.txt', 'A "ws/r\\u001b[31m.txt"', ''].join('\n'));
  assert.equal((await cli(f.store.file, '--diff', left!)).code, 2, 'B is required');
  assert.equal(commands.files, filesCommand, 'registered as `arbor-session files`');
  assert.match((await cli(f.store.file, '--leaf', 'nope')).err, /no entry with id nope/);
});
