import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectEntriesForBranchSummary, findCommonAncestor } from '../../../src/branch/collect';
import { SessionStore } from '../../../src/session/store';
import { TreeSession, ancestorsOf, rng } from './helpers';

/** A ─ B ─ C ─ D and A ─ E ─ F */
async function forked() {
  const t = await TreeSession.create();
  const A = await t.user('A');
  const B = await t.assistant('B');
  const C = await t.user('C');
  const D = await t.assistant('D');
  t.at(A);
  const E = await t.assistant('E');
  const F = await t.user('F');
  return { t, A, B, C, D, E, F };
}

test('moving across: entries from the old leaf back to the common ancestor, oldest first', async () => {
  const { t, A, B, C, D, F } = await forked();
  try {
    const result = collectEntriesForBranchSummary(t.store, D, F);
    assert.equal(result.commonAncestorId, A);
    assert.deepEqual(result.entries.map((e) => e.id), [B, C, D]);
  } finally {
    await t.dispose();
  }
});

test('moving up: the target is the common ancestor and only entries below it are collected', async () => {
  const { t, B, C, D } = await forked();
  try {
    const result = collectEntriesForBranchSummary(t.store, D, B);
    assert.equal(result.commonAncestorId, B);
    assert.deepEqual(result.entries.map((e) => e.id), [C, D]);
  } finally {
    await t.dispose();
  }
});

test('moving down: the old leaf is an ancestor of the target, nothing is abandoned', async () => {
  const { t, B, D } = await forked();
  try {
    const result = collectEntriesForBranchSummary(t.store, B, D);
    assert.equal(result.commonAncestorId, B);
    assert.deepEqual(result.entries, []);
  } finally {
    await t.dispose();
  }
});

test('moving to the root and to the same leaf', async () => {
  const { t, A, B, C, D } = await forked();
  try {
    const toRoot = collectEntriesForBranchSummary(t.store, D, A);
    assert.equal(toRoot.commonAncestorId, A);
    assert.deepEqual(toRoot.entries.map((e) => e.id), [B, C, D]);
    const same = collectEntriesForBranchSummary(t.store, D, D);
    assert.equal(same.commonAncestorId, D);
    assert.deepEqual(same.entries, []);
  } finally {
    await t.dispose();
  }
});

test('null old leaf collects nothing; separate roots share no ancestor and collect the whole old path', async () => {
  const { t, A, B, C, D } = await forked();
  try {
    assert.deepEqual(collectEntriesForBranchSummary(t.store, null, D), { entries: [], commonAncestorId: null });
    t.at(null);
    const R = await t.user('second root');
    const result = collectEntriesForBranchSummary(t.store, D, R);
    assert.equal(result.commonAncestorId, null);
    assert.deepEqual(result.entries.map((e) => e.id), [A, B, C, D]);
    assert.equal(findCommonAncestor(t.store, R, D), null);
  } finally {
    await t.dispose();
  }
});

test('compaction entries are collected like any other entry (the walk does not stop there)', async () => {
  const t = await TreeSession.create();
  try {
    const A = await t.user('A');
    const B = await t.assistant('B');
    const K = await t.compaction('summary so far', B);
    const C = await t.user('C');
    t.at(A);
    const X = await t.assistant('X');
    const result = collectEntriesForBranchSummary(t.store, C, X);
    assert.deepEqual(result.entries.map((e) => e.id), [B, K, C]);
  } finally {
    await t.dispose();
  }
});

test('generated trees: collection matches an independent ancestor oracle for every pair of nodes', async () => {
  for (const seed of [1, 7, 42, 1234]) {
    const random = rng(seed);
    const t = await TreeSession.create();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 28; i++) {
        // Mostly extend a random existing node; sometimes start a new root.
        const parent = ids.length === 0 || random() < 0.05 ? null : ids[Math.floor(random() * ids.length)]!;
        t.at(parent);
        ids.push(random() < 0.5 ? await t.user(`u${i}`) : await t.assistant(`a${i}`));
      }
      const entries = t.store.getEntries();
      for (const from of ids) {
        for (const to of ids) {
          const fromAnc = ancestorsOf(entries, from);
          const toAnc = new Set(ancestorsOf(entries, to));
          const expectedCommon = fromAnc.find((id) => toAnc.has(id)) ?? null;
          const expectedEntries = (expectedCommon === null ? fromAnc : fromAnc.slice(0, fromAnc.indexOf(expectedCommon))).reverse();
          const result = collectEntriesForBranchSummary(t.store, from, to);
          assert.equal(result.commonAncestorId, expectedCommon, `seed ${seed}: ${from} → ${to}`);
          assert.deepEqual(result.entries.map((e) => e.id), expectedEntries, `seed ${seed}: ${from} → ${to}`);
        }
      }
    } finally {
      await t.dispose();
    }
  }
});

test('cycle-safe: a parent cycle in a corrupted file terminates', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-branch-cycle-'));
  try {
    const file = join(dir, 'cycle.jsonl');
    const ts = '2026-01-01T00:00:00.000Z';
    const line = (id: string, parentId: string | null, text: string) =>
      JSON.stringify({ type: 'message', id, parentId, timestamp: ts, message: { role: 'user', content: text, timestamp: 1 } });
    await writeFile(
      file,
      [
        JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: ts, cwd: dir }),
        line('r', null, 'root'),
        line('x', 'y', 'x'),
        line('y', 'x', 'y'),
        line('z', 'x', 'z'),
      ].join('\n') + '\n',
    );
    const store = await SessionStore.open(file);
    const result = collectEntriesForBranchSummary(store, 'z', 'r');
    assert.equal(result.commonAncestorId, null);
    assert.deepEqual(result.entries.map((e) => e.id).sort(), ['x', 'y', 'z']);
    assert.equal(result.entries[result.entries.length - 1]!.id, 'z');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
