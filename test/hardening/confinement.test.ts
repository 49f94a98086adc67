// Security: no path-taking tool can read, list, search or write outside the workspace, whatever mix of
// `..`, absolute paths, `~`, symlinked files, symlinked directories, dangling symlinks and symlink chains
// the model sends, with the pure-Node search and with ripgrep. Checked by effect, not by message: the
// secret's text never appears in any output, and no file outside the workspace is created or changed.
// (bash runs arbitrary commands by design; it is gated by approval, not by path confinement.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, realpath, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createTools } from '../../src/agent/tools/index';
import { runTool, type AgentTool, type ToolOutput } from '../../src/agent/tools/types';
import { reportFigures } from './profile';

const SECRET = 'TOP-SECRET-7f3a9c';

async function sandbox() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'arbor-confine-')));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  await mkdir(join(ws, 'src'), { recursive: true });
  await mkdir(join(outside, 'sub'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(outside, 'sub', 'deep.txt'), `${SECRET} deep\n`);
  await writeFile(join(ws, 'src', 'ok.ts'), 'export const ok = 1;\n');
  // Every kind of link that leads out.
  await symlink(join(outside, 'secret.txt'), join(ws, 'file-link.txt'));
  await symlink(outside, join(ws, 'dir-link'));
  await symlink(join(outside, 'not-there.txt'), join(ws, 'dangling.txt'));
  await symlink(join(ws, 'dir-link'), join(ws, 'src', 'chain')); // link → link → outside
  await symlink('../../outside/secret.txt', join(ws, 'src', 'relative-link.txt'));
  await symlink(join(outside, 'sub'), join(ws, 'src', 'sub-link'));
  return { base, ws, outside };
}

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const s = statSync(full);
      if (s.isDirectory()) walk(full);
      else out.set(relative(dir, full), `${s.size}:${s.mtimeMs}:${readFileSync(full, 'utf8')}`);
    }
  };
  walk(dir);
  return out;
}

const textOf = (o: ToolOutput) => o.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') + JSON.stringify(o.details ?? null);

test('path-taking tools stay inside the workspace under `..`, absolute, `~` and symlink attacks', async (t) => {
  const { base, ws, outside } = await sandbox();
  t.after(() => rm(base, { recursive: true, force: true }));
  const before = snapshot(outside);
  const escapes = [
    '../outside/secret.txt', 'src/../../outside/secret.txt', 'src/../../../' + relative('/', outside) + '/secret.txt', join(outside, 'secret.txt'),
    `${ws}/../outside/secret.txt`, '~/../../' + relative('/', outside) + '/secret.txt', '@../outside/secret.txt', 'file-link.txt', 'dir-link/secret.txt',
    'dir-link/sub/deep.txt', 'dir-link', 'dangling.txt', 'src/chain/secret.txt', 'src/chain', 'src/relative-link.txt', 'src/sub-link/deep.txt', 'src/sub-link',
    'dir-link/new-file.txt', 'src/chain/new/dir/file.txt', '..', '../', '/', '/etc/passwd', 'src/./../..',
  ];
  const engines: (string | false)[] = [false];
  if (spawnSync('rg', ['--version']).status === 0) engines.push('rg');
  let attempts = 0;
  let refused = 0;
  for (const engine of engines) {
    const tools = Object.fromEntries(createTools({ ripgrep: engine }).map((tool) => [tool.name, tool])) as Record<string, AgentTool>;
    const ctx = { workspace: { folders: [{ name: 'ws', path: ws }] }, signal: new AbortController().signal };
    for (const path of escapes) {
      const calls: [string, Record<string, unknown>][] = [
        ['read', { path }],
        ['write', { path, content: `written through ${path}` }],
        ['edit', { path, oldText: SECRET, newText: 'PWNED' }],
        ['ls', { path }],
        ['find', { pattern: '**/*', path }],
        ['find', { pattern: '*.txt', path }],
        ['grep', { pattern: 'SECRET', path }],
        ['grep', { pattern: 'SECRET', path, glob: '*.txt' }],
      ];
      for (const [name, args] of calls) {
        attempts++;
        const output = await runTool(tools[name]!, args, ctx);
        const label = `${name}(${JSON.stringify(args)}) engine=${engine}`;
        assert.ok(!textOf(output).includes(SECRET), `${label} leaked the secret: ${textOf(output).slice(0, 300)}`);
        if (output.isError) refused++;
      }
    }
    // Searching the whole workspace must not descend through links that lead out.
    for (const args of [{ pattern: 'SECRET' }, { pattern: 'SECRET', path: '.' }, { pattern: 'SECRET', path: 'src' }]) {
      attempts++;
      const output = await runTool(tools.grep!, args, ctx);
      assert.ok(!textOf(output).includes(SECRET), `grep(${JSON.stringify(args)}) engine=${engine} followed a link out: ${textOf(output).slice(0, 300)}`);
    }
    for (const args of [{ pattern: '**/*.txt' }, { pattern: '**/deep.txt', path: 'src' }]) {
      attempts++;
      const output = await runTool(tools.find!, args, ctx);
      const listed = output.content.flatMap((c) => (c.type === 'text' ? c.text.split('\n') : [])).filter((line) => /^\S+$/.test(line));
      assert.ok(!listed.some((line) => /(^|\/)(deep|secret)\.txt$/.test(line)), `find(${JSON.stringify(args)}) engine=${engine} listed files outside: ${textOf(output).slice(0, 300)}`);
    }
  }
  assert.deepEqual(snapshot(outside), before, 'a file outside the workspace was created or changed');
  assert.ok(!existsSync(join(outside, 'not-there.txt')), 'writing through a dangling link created its target');
  assert.ok(readFileSync(join(ws, 'src', 'ok.ts'), 'utf8').includes('ok'), 'the workspace file is intact');
  reportFigures('confinement', { attempts, refusedAsErrors: refused, engines: engines.map(String).join('+'), leaks: 0 });
});

test('inside-the-workspace paths still work (the suite would pass trivially if every call failed)', async (t) => {
  const { base, ws } = await sandbox();
  t.after(() => rm(base, { recursive: true, force: true }));
  const tools = Object.fromEntries(createTools({ ripgrep: false }).map((tool) => [tool.name, tool])) as Record<string, AgentTool>;
  const ctx = { workspace: { folders: [{ name: 'ws', path: ws }] }, signal: new AbortController().signal };
  const read = await runTool(tools.read!, { path: 'src/../src/ok.ts' }, ctx);
  assert.ok(!read.isError && textOf(read).includes('export const ok'));
  const write = await runTool(tools.write!, { path: 'src/new.txt', content: 'fresh' }, ctx);
  assert.ok(!write.isError);
  assert.equal(readFileSync(join(ws, 'src', 'new.txt'), 'utf8'), 'fresh');
  const grep = await runTool(tools.grep!, { pattern: 'export const' }, ctx);
  assert.ok(!grep.isError && textOf(grep).includes('ok.ts'));
});
