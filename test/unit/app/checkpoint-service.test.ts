// ArborApp with file checkpoints (issue #15; src/app/checkpoint-service.ts): a turn's write is recorded,
// a navigation with `files` restores the target's files, a cancelled summary puts them back, Restricted
// Mode and arbor.checkpoints.enabled = false restore nothing, the settings are validated per key, and
// what VS Code's files.exclude hides is not checkpointed.
import { accepted, refusal } from './outcome';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCheckpointSettings } from '../../../src/app/checkpoint-settings';
import { readRawSettings } from '../../../src/app/settings-read';
import { appHarness, type AppHarness } from './helpers';

async function writeTurn(h: AppHarness, word: string): Promise<string> {
  h.fake.enqueue({ toolCalls: [{ id: `w_${word}`, name: 'write', input: { path: 'notes.txt', content: `${word}\n` } }] }, { text: `Wrote ${word}.` });
  assert.equal((await h.app.prompt(`write ${word}`)).kind, 'sent');
  return h.app.currentStore!.getLeafId()!;
}

const notes = (h: AppHarness) => readFile(join(h.ws, 'notes.txt'), 'utf8');

test('a navigation with files restores the target turn\'s file; without files it stays', async () => {
  const h = await appHarness();
  const one = await writeTurn(h, 'one');
  await writeTurn(h, 'two');
  const preview = await h.app.tree.previewSwitchFiles(one);
  assert.equal(preview?.differ, true);
  assert.deepEqual(preview?.plan.changes.map((c) => c.key), ['ws/notes.txt']);
  const result = accepted(await h.app.tree.navigate(one, { files: { overwrite: new Set() } }));
  assert.equal(result.files?.kind, 'restored');
  assert.equal(await notes(h), 'one\n');
  const tip = h.app.currentStore!.getEntries().at(-1)!.id;
  await h.app.tree.navigate(tip);
  assert.equal(await notes(h), 'one\n', 'conversation only: the file stays');
});

test('a turn\'s files show on the step that made them, and picking it restores them (not the state before)', async () => {
  const h = await appHarness();
  const store = () => h.app.currentStore!;
  const one = (await writeTurn(h, 'one'), store().getBranch().find((e) => e.type === 'custom')!.id);
  await writeTurn(h, 'two');
  // the manifest follows the tool results of the reply that wrote the file
  const reply = store().getEntry(one)!.parentId!;
  assert.equal(store().getEntry(reply)!.type, 'message');
  const tree = h.app.snapshot().tree!;
  assert.equal(tree.some((n) => n.kind === 'custom'), false, 'no row for a manifest');
  assert.deepEqual(tree.find((n) => n.id === reply)?.files, { count: 1, text: '1 file changed' });
  const result = accepted(await h.app.tree.navigate(reply, { files: { overwrite: new Set() } }));
  assert.equal(result.files?.kind, 'restored');
  assert.equal(await notes(h), 'one\n');
  assert.equal(store().getLeafId(), one, 'the leaf is the reply with its files');
  assert.equal(h.app.views.treeLeafId, reply, 'shown on the reply row');
});

test('a navigation cancelled after the files were restored puts them back', async () => {
  const h = await appHarness();
  const one = await writeTurn(h, 'one');
  await writeTurn(h, 'two');
  let seen = '';
  h.app.navigationHooks.register({
    beforeTreeNavigation: async () => {
      seen = await notes(h);
      return { cancel: true };
    },
  });
  const result = accepted(await h.app.tree.navigate(one, { files: { overwrite: new Set() } }));
  assert.equal(result.cancelled, true);
  assert.equal(seen, 'one\n', 'the files were restored before the navigation ran');
  assert.equal(await notes(h), 'two\n', 'and put back when it was cancelled');
});

test('Restricted Mode: nothing is offered or restored', async () => {
  const h = await appHarness({ trusted: false });
  h.fake.enqueue({ text: 'first' }, { text: 'second' });
  await h.app.prompt('one');
  const first = h.app.currentStore!.getLeafId()!;
  await h.app.prompt('two');
  assert.equal((await h.app.tree.previewSwitchFiles(first))?.restorable, false);
  refusal(await h.app.tree.navigate(first, { files: { overwrite: new Set() } }), 'files-not-restored', /Restricted Mode/);
  assert.notEqual(h.app.currentStore!.getLeafId(), first, 'the leaf did not move either');
});

test('arbor.checkpoints.enabled = false: turns record no manifest', async () => {
  const h = await appHarness({ raw: { checkpoints: { enabled: false } } });
  await writeTurn(h, 'one');
  assert.equal(h.app.currentStore!.getEntries().filter((e) => e.type === 'custom').length, 0);
  assert.equal(await h.app.tree.previewSwitchFiles(h.app.currentStore!.getLeafId()!), undefined);
});

test('checkpoint settings are validated key by key', () => {
  const parsed = parseCheckpointSettings({ enabled: 'yes', restore: 'always', maxFileBytes: -1, exclude: ['dist/**'] });
  assert.deepEqual(parsed.settings, { enabled: true, restore: 'always', maxFileBytes: 5 * 1024 * 1024, exclude: ['dist/**'], filesExclude: [] });
  assert.equal(parsed.warnings.length, 2);
  assert.match(parsed.warnings[0]!, /arbor\.checkpoints\.enabled/);
});

test('files.exclude: the globs it turns on are not checkpointed, a folder glob covering every file below it', async () => {
  const filesExclude = { generated: true, '**/*.tmp': true, shown: false, '**/*.js': { when: '$(basename).ts' } };
  assert.deepEqual(parseCheckpointSettings({}, filesExclude).settings.filesExclude, ['generated', '**/*.tmp']);
  const editor = (section: string) => ({ get: (key: string) => (section === 'files' && key === 'exclude' ? filesExclude : undefined), inspect: () => undefined });
  assert.deepEqual(readRawSettings(editor).filesExclude, filesExclude, 'read from the editor\'s files section');
  const h = await appHarness({ raw: { filesExclude } });
  const write = (path: string) => ({ id: `w_${path}`, name: 'write', input: { path, content: 'x\n' } });
  h.fake.enqueue({ toolCalls: ['generated/deep/out.txt', 'scratch.tmp', 'shown/kept.txt', 'app.js', 'notes.txt'].map(write) }, { text: 'Wrote.' });
  assert.equal((await h.app.prompt('write them')).kind, 'sent');
  const manifest = h.app.currentStore!.getEntries().find((e) => e.type === 'custom') as unknown as { data: { after: Record<string, unknown> } };
  assert.deepEqual(Object.keys(manifest.data.after).sort(), ['ws/app.js', 'ws/notes.txt', 'ws/shown/kept.txt']);
});
