// The folder watcher that narrows a `bash` capture's git status (src/checkpoints/tree-watcher.ts): on
// random commands (files and folders made, changed, removed, renamed, ignore rules edited, ignored and
// force-added files) a watched root records exactly what the full scan records, while asking git about
// the touched paths only; windows it cannot trust fall back to the full scan; an outside edit is read
// before the next command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCheckpoints, type Checkpoints, type FilesManifest } from '../../../src/checkpoints';
import { hashContent } from '../../../src/checkpoints/blob-store';
import { MAX_WINDOW_EVENTS, pathspecsFor } from '../../../src/checkpoints/tree-watcher';
import { SessionStore } from '../../../src/session/store';
import { fixture, type Fixture } from './helpers';
import { builtin } from '../tools/builtin';

const linux = process.platform === 'linux';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

function put(dir: string, rel: string, content: string): void {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), content);
}

/** A watched workspace holding `files`, committed; its one twin. */
async function watchedRepo(t: { after(fn: () => void): void }, files: Record<string, string>): Promise<{ f: Fixture; twins: Twin[] }> {
  const f = await fixture();
  t.after(() => f.cleanup());
  for (const [rel, content] of Object.entries(files)) put(f.ws, rel, content);
  git(f.ws, 'init', '-q');
  git(f.ws, 'add', '-A');
  git(f.ws, 'commit', '-qm', 'base');
  return { f, twins: [{ name: 'watched', cp: f.cp, store: f.store }] };
}

interface Twin {
  name: string;
  cp: Checkpoints;
  store: SessionStore;
}

/** A checkpoint store on `folder` (the fixture's workspace by default); `watchFolders: false` is what the full scan records. */
async function twin(f: Fixture, name: string, folder: string, watchFolders: boolean): Promise<Twin> {
  const cp = await openCheckpoints(join(f.base, `store-${name}`), { folders: [{ name: 'ws', path: folder }] }, { watchFolders });
  return { name, cp, store: await SessionStore.create({ dir: join(f.base, `sessions-${name}`), cwd: folder }) };
}

/**
 * One command seen by every twin: all check before, the command runs, all scan after; their manifests.
 * The twins stand for one command starting once: every twin's check before reads the clock the first one
 * read at its start. The check keeps a file Arbor did not know out of the command when its change time is
 * older than the start less CHANGE_TIME_SLACK_MS (change-scan.ts); on a loaded machine a later twin's check
 * starts later, and a change time between the two cutoffs would count for one twin only.
 */
async function command(twins: Twin[], run: () => void): Promise<(FilesManifest | undefined)[]> {
  const realNow = Date.now;
  const start = realNow();
  try {
    for (const t of twins) {
      const late = realNow() - start;
      Date.now = () => realNow() - late;
      await t.cp.recorder.beforeTool(builtin('bash'), { command: 'x' });
    }
  } finally {
    Date.now = realNow;
  }
  run();
  const out: (FilesManifest | undefined)[] = [];
  for (const t of twins) {
    await t.cp.recorder.afterTool(builtin('bash'), { command: 'x' });
    out.push(t.cp.recorder.manifest());
    await t.cp.recorder.finishTurn((type, data) => t.store.appendCustomEntry(type, data));
    await t.cp.files.watchers.settled();
  }
  return out;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Folders below `dir` (relative), skipping .git. */
function folders(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const child = rel ? `${rel}/${name}` : name;
    if (name !== '.git' && statSync(join(dir, child)).isDirectory()) out.push(child, ...folders(dir, child));
  }
  return out;
}

function files(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const child = rel ? `${rel}/${name}` : name;
    if (name === '.git') continue;
    if (statSync(join(dir, child)).isDirectory()) out.push(...files(dir, child));
    else out.push(child);
  }
  return out;
}

/** One random change of the kinds a command makes in `ws`; `top`: the repository's top when `ws` is below it. */
function randomChange(ws: string, random: () => number, step: number, top?: string): string {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const someFolder = () => pick(['', ...folders(ws)]);
  const someFile = () => pick(files(ws));
  const kinds = ['edit', 'edit', 'create', 'create', 'nested', 'delete', 'rmdir', 'rename', 'ignored', 'gitignore', 'chmod', 'recreate', ...(top ? ['topignore'] : [])];
  const kind = pick(kinds);
  const at = (rel: string, name: string) => (rel ? `${rel}/${name}` : name);
  switch (kind) {
    case 'edit': {
      const file = someFile();
      if (file) writeFileSync(join(ws, file), `edit ${step}\n`);
      return `edit ${file}`;
    }
    case 'create': {
      const folder = someFolder();
      put(ws, at(folder, `new${step}.txt`), `new ${step}\n`);
      return `create in ${folder || '.'}`;
    }
    case 'nested':
      put(ws, at(someFolder(), `n${step}/deeper/f${step}.txt`), `nested ${step}\n`);
      return 'nested';
    case 'delete': {
      const file = someFile();
      if (file && file !== '.gitignore') rmSync(join(ws, file));
      return `delete ${file}`;
    }
    case 'rmdir': {
      const folder = pick(folders(ws).filter((d) => d !== 'build'));
      if (folder) rmSync(join(ws, folder), { recursive: true, force: true });
      return `rmdir ${folder}`;
    }
    case 'rename': {
      const folder = pick(folders(ws).filter((d) => !d.startsWith('build')));
      if (folder && existsSync(join(ws, folder))) renameSync(join(ws, folder), join(ws, `moved${step}`));
      return `rename ${folder}`;
    }
    case 'ignored':
      put(ws, `build/out${step}.js`, `ignored ${step}\n`);
      writeFileSync(join(ws, 'build', 'keep.txt'), `tracked in ignored ${step}\n`);
      return 'ignored';
    case 'gitignore':
      writeFileSync(join(ws, '.gitignore'), random() < 0.5 ? 'build/\n*.log\n' : 'build/\n*.log\nextra/\n');
      put(ws, `extra/e${step}.txt`, `extra ${step}\n`);
      return 'gitignore';
    case 'topignore':
      // A rule above the watched folder ignores, then no longer ignores, a folder the command writes in.
      writeFileSync(join(top!, '.gitignore'), random() < 0.5 ? 'pkg/local/\n' : '# nothing\n');
      put(ws, `local/l${step}.txt`, `local ${step}\n`);
      return 'topignore';
    case 'chmod': {
      const file = someFile();
      if (file) chmodSync(join(ws, file), random() < 0.5 ? 0o755 : 0o644);
      return `chmod ${file}`;
    }
    default: {
      // A folder removed and made again in one command, then changed in a later one (its old watch is dead).
      const folder = pick(folders(ws).filter((d) => !d.startsWith('build')));
      if (!folder) return 'recreate (none)';
      rmSync(join(ws, folder), { recursive: true, force: true });
      put(ws, `${folder}/again${step}.txt`, `again ${step}\n`);
      return `recreate ${folder}`;
    }
  }
}

/** The random-command check: `sub` watches a folder below the repository's top instead of the top. */
async function randomCommands(seed: number, sub: boolean, f: Fixture, register: (close: () => void) => void): Promise<void> {
  const folder = sub ? join(f.ws, 'pkg') : f.ws;
  const files0 = { 'a.txt': 'a\n', 'src/b.ts': 'b\n', 'src/lib/c.ts': 'c\n', 'docs/d.md': 'd\n', '.gitignore': 'build/\n*.log\n' };
  for (const [rel, content] of Object.entries(files0)) put(folder, rel, content);
  put(folder, 'build/keep.txt', 'tracked in ignored\n');
  if (sub) put(f.ws, 'outside.txt', 'beside the watched folder\n');
  git(f.ws, 'init', '-q');
  git(f.ws, 'add', '-A');
  git(f.ws, 'add', '-f', join(folder, 'build', 'keep.txt'));
  git(f.ws, 'commit', '-qm', 'base');
  const twins = [await twin(f, 'watched', folder, true), await twin(f, 'full', folder, false)];
  register(() => twins.forEach((t) => t.cp.files.close()));
  const random = rng(seed);
  for (let step = 0; step < 40; step++) {
    let what = '';
    const [watched, scanned] = await command(twins, () => {
      const changes = 1 + Math.floor(random() * 3);
      for (let k = 0; k < changes; k++) what += `${randomChange(folder, random, step * 10 + k, sub ? f.ws : undefined)}; `;
    });
    assert.deepEqual(watched, scanned, `step ${step}: ${what}`);
  }
  const counts = twins[0]!.cp.files.watchers.counts;
  assert.ok(counts.narrowed + counts.untouched >= 20, `most commands were narrowed: ${JSON.stringify(counts)}`);
  assert.equal(twins[1]!.cp.files.watchers.counts.narrowed, 0);
}

for (const [seed, sub] of [[1, false], [2, false], [3, false], [4, true], [5, true]] as const) {
  const where = sub ? 'a folder below the repository top' : 'the repository top';
  test(`random commands (seed ${seed}, ${where}): a watched root records what the full scan records, asking git less`, { skip: !linux && 'folder watching is Linux only' }, async (t) => {
    const f = await fixture();
    const closers: (() => void)[] = [];
    t.after(() => {
      closers.forEach((close) => close());
      f.cleanup();
    });
    await randomCommands(seed, sub, f, (close) => closers.push(close));
  });
}

test('a command that touches nothing needs no git call, and one change asks git about that path only', { skip: !linux && 'Linux only' }, async (t) => {
  const { f, twins } = await watchedRepo(t, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i % 3}/f${i}.txt`, `${i}\n`])));
  await command(twins, () => put(f.ws, 'p0/f0.txt', 'first\n'));
  const [nothing] = await command(twins, () => undefined);
  assert.equal(nothing, undefined);
  assert.deepEqual(f.cp.files.watchers.counts, { full: 0, narrowed: 0, untouched: 1 });
  const [one] = await command(twins, () => put(f.ws, 'p1/f1.txt', 'changed\n'));
  assert.deepEqual(Object.keys(one?.after ?? {}), ['ws/p1/f1.txt']);
  assert.deepEqual(f.cp.files.watchers.counts, { full: 0, narrowed: 1, untouched: 1 });
});

test('a flood of events, or an edit of git\'s own exclude file, makes the scan full, and the next one is narrowed again', { skip: !linux && 'Linux only' }, async (t) => {
  const { f, twins } = await watchedRepo(t, { 'src/a.txt': 'a\n' });
  await command(twins, () => put(f.ws, 'src/a.txt', 'a1\n'));
  const [flood] = await command(twins, () => {
    // Alternating files: the kernel merges an event identical to the one queued just before it.
    for (let i = 0; i <= MAX_WINDOW_EVENTS; i++) writeFileSync(join(f.ws, 'src', i % 2 ? 'a.txt' : 'b.txt'), `flood ${i}\n`);
  });
  assert.deepEqual(Object.keys(flood?.after ?? {}), ['ws/src/a.txt', 'ws/src/b.txt']);
  assert.equal(f.cp.files.watchers.counts.full, 1);
  const [excluded] = await command(twins, () => {
    writeFileSync(join(f.ws, '.git', 'info', 'exclude'), '*.tmp\n');
    put(f.ws, 'src/c.txt', 'c\n');
  });
  assert.deepEqual(Object.keys(excluded?.after ?? {}), ['ws/src/c.txt']);
  assert.equal(f.cp.files.watchers.counts.full, 2);
  await command(twins, () => put(f.ws, 'src/d.txt', 'd\n'));
  assert.equal(f.cp.files.watchers.counts.narrowed, 1);
});

test('a file edited outside Arbor and then by a command keeps the outside content as its state before', { skip: !linux && 'Linux only' }, async (t) => {
  const { f, twins } = await watchedRepo(t, { 'a.txt': 'committed\n', 'ignored.log': 'x\n', '.gitignore': '*.log\n' });
  await command(twins, () => put(f.ws, 'b.txt', 'b\n'));
  writeFileSync(join(f.ws, 'a.txt'), 'outside\n');
  writeFileSync(join(f.ws, 'ignored.log'), 'outside too\n');
  const [turn] = await command(twins, () => {
    writeFileSync(join(f.ws, 'a.txt'), 'by the command\n');
    writeFileSync(join(f.ws, 'ignored.log'), 'by the command\n');
  });
  const file = (s: string) => ({ kind: 'file', hash: hashContent(Buffer.from(s)), size: Buffer.byteLength(s) });
  assert.deepEqual(turn && { before: turn.before, after: turn.after }, { before: { 'ws/a.txt': file('outside\n') }, after: { 'ws/a.txt': file('by the command\n') } });
});

test('closing stops the watches: later changes reach no window', { skip: !linux && 'Linux only' }, async (t) => {
  const { f, twins } = await watchedRepo(t, { 'a.txt': 'a\n' });
  await command(twins, () => put(f.ws, 'a.txt', 'a1\n'));
  f.cp.files.close();
  const [after] = await command(twins, () => put(f.ws, 'b.txt', 'b\n'));
  assert.deepEqual(Object.keys(after?.after ?? {}), ['ws/b.txt'], 'still captured, by the full scan');
  assert.deepEqual(f.cp.files.watchers.counts, { full: 1, narrowed: 0, untouched: 0 });
});

test('pathspecs: the paths, their folders when many, everything when even those are many or the top is touched', () => {
  const top = '/w';
  assert.deepEqual(pathspecsFor(top, ['/w/a/x.ts', '/w/b.txt']), [':(literal)a/x.ts', ':(literal)b.txt']);
  const many = Array.from({ length: 20 }, (_, i) => `/w/d${i % 2}/f${i}.ts`);
  assert.deepEqual(pathspecsFor(top, many), [':(literal)d0', ':(literal)d1']);
  assert.equal(pathspecsFor(top, Array.from({ length: 20 }, (_, i) => `/w/d${i}/f.ts`)), undefined);
  assert.equal(pathspecsFor(top, [...many, '/w/top.txt']), undefined);
  assert.equal(pathspecsFor(top, ['/w']), undefined);
  assert.deepEqual(pathspecsFor(top, []), []);
  assert.deepEqual(pathspecsFor(top, ['/w/src/.gitignore']), [':(literal)src']);
  assert.equal(pathspecsFor(top, ['/w/.gitignore']), undefined);
});
