// Session catalog: pi folder naming, listing, rename, delete, fork (createBranchedSession semantics).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSessionDir, deleteSession, forkBranch, listSessions, renameSession, sessionDirName } from '../../../src/session/catalog';
import { SessionStore } from '../../../src/session/store';
import { assistant, tempDir, user } from './helpers';

test('session folder name follows pi', () => {
  assert.equal(sessionDirName('/Users/x/work/proj'), '--Users-x-work-proj--');
  assert.equal(sessionDirName('C:\\Users\\x\\proj'), '--C--Users-x-proj--');
  assert.equal(defaultSessionDir('/root', '/a/b'), join('/root', '--a-b--'));
});

test('list: name, first user message, counts, newest first; bad files skipped', async (t) => {
  const dir = tempDir(t);
  const one = await SessionStore.create({ dir, cwd: '/w' });
  const a = await one.appendMessage(user('first question'));
  await one.appendMessage(assistant('answer'));
  one.branch(a.id);
  await one.appendMessage(assistant('other answer'));
  await renameSession(one.file, 'Named');
  await new Promise((r) => setTimeout(r, 20));
  const two = await SessionStore.create({ dir, cwd: '/w' });
  await two.appendMessage({ role: 'user', content: [{ type: 'text', text: 'block text' }], timestamp: 1 });
  writeFileSync(join(dir, 'broken.jsonl'), 'garbage\n');
  const { sessions, skipped } = await listSessions(dir);
  assert.equal(skipped.length, 1);
  assert.deepEqual(sessions.map((s) => s.file), [two.file, one.file]);
  const summary = sessions[1]!;
  assert.equal(summary.name, 'Named');
  assert.equal(summary.firstUserMessage, 'first question');
  assert.equal(summary.entryCount, 4);
  assert.equal(summary.branchCount, 2);
  assert.equal(sessions[0]!.firstUserMessage, 'block text');
  assert.deepEqual(await listSessions(join(dir, 'none')), { sessions: [], skipped: [] });
  await deleteSession(two.file);
  assert.equal(existsSync(two.file), false);
});

test('fork: an entry whose parent was a label is re-linked, so the fork keeps the whole path', async (t) => {
  const dir = tempDir(t);
  const s = await SessionStore.create({ dir, cwd: '/w' });
  const first = await s.appendMessage(user('first'));
  await s.appendMessage(assistant('answer'));
  await s.appendLabelChange(first.id, 'start');
  const after = await s.appendMessage(user('after the label'));
  const reply = await s.appendMessage(assistant('last'));
  const fork = await forkBranch(s, reply.id, { dir: join(dir, 'forks') });
  assert.deepEqual(fork.getBranch(reply.id).filter((e) => e.type === 'message').length, 4);
  assert.equal(fork.getEntry(after.id)?.parentId, s.getBranch(reply.id).filter((e) => e.type !== 'label')[1]!.id);
  assert.equal(fork.buildContext().messages.length, 4);
  const rawAfter = JSON.parse(readFileSync(fork.file, 'utf8').split('\n').find((l) => l.includes(after.id))!);
  assert.equal(rawAfter.message.content[0].text ?? rawAfter.message.content, 'after the label');
});

test('fork: path without labels, labels re-created after it, parentSession = old file, raw bytes kept', async (t) => {
  const dir = tempDir(t);
  const s = await SessionStore.create({ dir, cwd: '/w' });
  const a = await s.appendMessage(user('a'));
  const b = await s.appendMessage(assistant('b'));
  await s.appendLabelChange(a.id, 'start');
  const c = await s.appendMessage(user('c'));
  s.branch(b.id);
  await s.appendMessage(user('other'));
  const fork = await forkBranch(s, c.id, { dir: join(dir, 'forks') });
  assert.equal(fork.header.parentSession, s.file);
  assert.notEqual(fork.header.id, s.header.id);
  const entries = fork.getEntries();
  assert.deepEqual(entries.slice(0, 3).map((e) => e.id), [a.id, b.id, c.id]);
  assert.equal(entries.length, 4);
  const label = entries[3]!;
  assert.equal(label.type, 'label');
  assert.equal(label.parentId, c.id);
  assert.equal(fork.getLabel(a.id), 'start');
  assert.equal(label.timestamp, s.getLabelTimestamp(a.id));
  const originalLines = readFileSync(s.file, 'utf8').split('\n');
  const forkLines = readFileSync(fork.file, 'utf8').split('\n');
  assert.equal(forkLines[1], originalLines[1]);
  assert.equal(fork.getLeafId(), label.id);
});
