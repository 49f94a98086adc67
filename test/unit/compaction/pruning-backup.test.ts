// Pruning rewrites the session file through the store, which copies the original to a `.bak` first so
// a crash mid-rewrite loses nothing. Issue 17: that backup was never removed, so every prune left a full
// copy of the session behind. The backup may exist only while the rewrite is in flight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPruning } from '../../../src/compaction/pruning';
import { SessionStore } from '../../../src/session/store';

const now = Date.now();

async function sessionWithBigOutputs(dir: string): Promise<SessionStore> {
  const store = await SessionStore.create({ dir, cwd: dir });
  for (let i = 0; i < 3; i++) {
    await store.appendMessage({ role: 'user', content: `go ${i}`, timestamp: now });
    await store.appendMessage({
      role: 'assistant', content: [{ type: 'toolCall', id: `c${i}`, name: 'bash', arguments: {} }],
      api: 'openai-completions', provider: 'openai', model: 'm', stopReason: 'toolUse', timestamp: now,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    });
    await store.appendMessage({ role: 'toolResult', toolCallId: `c${i}`, toolName: 'bash', content: [{ type: 'text', text: 'x'.repeat(120_000) }], isError: false, timestamp: now });
  }
  return store;
}

async function backups(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.bak'));
}

test('a successful prune leaves no .bak of the session behind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-prune-'));
  try {
    const store = await sessionWithBigOutputs(dir);
    assert.ok((await applyPruning(store)) >= 20_000, 'the prune ran');
    assert.deepEqual(await backups(dir), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file with unreadable lines keeps its backup: those lines live only there after the rewrite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-prune-'));
  try {
    const written = await sessionWithBigOutputs(dir);
    await appendFile(written.file, 'not json at all\n');
    const store = await SessionStore.open(written.file);
    assert.ok((await applyPruning(store)) >= 20_000, 'the prune ran');
    assert.equal((await backups(dir)).length, 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
