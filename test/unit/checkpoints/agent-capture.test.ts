// A real AgentSession (fake provider) with file checkpoints: write, edit and bash each leave an
// `arbor.files` manifest after their turn's tool results, and the state at every node replays the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkpointStoreDir, openCheckpoints, readManifest, stateAtPath, type FileState } from '../../../src/checkpoints';
import { hashContent } from '../../../src/checkpoints/blob-store';
import { fileEntries, harness } from '../agent/session-helpers';

function fileState(content: string): FileState {
  return { kind: 'file', hash: hashContent(Buffer.from(content)), size: Buffer.byteLength(content) };
}

async function checkpointedHarness(git: boolean) {
  const h = await harness({ files: { 'notes.txt': 'hello world\n', 'keep.txt': 'untouched\n' } });
  if (git) {
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: h.ws });
    run('init', '-q');
    run('add', '-A');
    run('commit', '-qm', 'base');
  }
  const cp = await openCheckpoints(checkpointStoreDir(h.sessionDir), { folders: [{ name: 'ws', path: h.ws }] });
  // The harness built its AgentSession already; a second one over the same store gets the recorder.
  const { AgentSession } = await import('../../../src/agent/agent-session');
  const deps = (h.agent as unknown as { deps: ConstructorParameters<typeof AgentSession>[0] }).deps;
  const agent = new AgentSession({ ...deps, checkpoints: cp.recorder });
  return { h, cp, agent };
}

for (const git of [true, false]) {
  test(`write, edit and bash turns each append a manifest; state at every node replays the path (${git ? 'git' : 'no git'})`, async () => {
    const { h, cp, agent } = await checkpointedHarness(git);
    h.fake.enqueue(
      { toolCalls: [{ id: 'c1', name: 'write', input: { path: 'src/new.txt', content: 'fresh\n' } }] },
      { toolCalls: [{ id: 'c2', name: 'edit', input: { path: 'notes.txt', oldText: 'world', newText: 'arbor' } }] },
      { toolCalls: [{ id: 'c3', name: 'bash', input: { command: 'printf "by bash\\n" > made.txt && rm keep.txt && printf "again\\n" >> notes.txt' } }] },
      { toolCalls: [{ id: 'c4', name: 'read', input: { path: 'notes.txt' } }] },
      { text: 'done' },
    );
    await agent.prompt('make changes');
    assert.equal(await readFile(join(h.ws, 'made.txt'), 'utf8'), 'by bash\n');
    assert.deepEqual(await fileEntries(h.store), [
      'user',
      'assistant:toolUse', 'toolResult:write', 'custom',
      'assistant:toolUse', 'toolResult:edit', 'custom',
      'assistant:toolUse', 'toolResult:bash', 'custom',
      'assistant:toolUse', 'toolResult:read',
      'assistant:stop',
    ]);
    const manifests = h.store.getEntries().map(readManifest).filter((r) => r.kind === 'manifest').map((r) => r.manifest);
    assert.deepEqual(manifests.map((m) => m.method), ['tool', 'tool', git ? 'git' : 'scan']);
    assert.deepEqual({ ...manifests[0]!.after }, { 'ws/src/new.txt': fileState('fresh\n') });
    assert.deepEqual({ ...manifests[0]!.before }, { 'ws/src/new.txt': { kind: 'absent' } });
    assert.deepEqual({ ...manifests[1]!.before }, { 'ws/notes.txt': fileState('hello world\n') });
    assert.deepEqual({ ...manifests[1]!.after }, { 'ws/notes.txt': fileState('hello arbor\n') });
    assert.deepEqual({ ...manifests[2]!.before }, { 'ws/keep.txt': fileState('untouched\n'), 'ws/made.txt': { kind: 'absent' }, 'ws/notes.txt': fileState('hello arbor\n') });
    assert.deepEqual({ ...manifests[2]!.after }, { 'ws/keep.txt': { kind: 'absent' }, 'ws/made.txt': fileState('by bash\n'), 'ws/notes.txt': fileState('hello arbor\nagain\n') });

    // State at every node: manifests on the path, replayed in order.
    const expected: Record<string, FileState> = {};
    const manifestIds: string[] = [];
    for (const entry of h.store.getBranch()) {
      const read = readManifest(entry);
      if (read.kind === 'manifest') {
        Object.assign(expected, read.manifest.after);
        manifestIds.push(entry.id);
      }
      const state = stateAtPath(h.store.getBranch(entry.id));
      assert.deepEqual(Object.fromEntries(state.files), expected, `state at ${entry.id}`);
      assert.deepEqual(state.manifestIds, manifestIds);
    }
    // Every blob a manifest names is in the store, byte for byte.
    for (const m of manifests) {
      for (const s of [...Object.values(m.before), ...Object.values(m.after)]) {
        if (s.kind === 'file') assert.equal(hashContent(await cp.blobs.get(s.hash)), s.hash);
      }
    }
  });
}

test('a turn whose tools changed nothing appends no manifest; without the hook nothing is appended', async () => {
  const { h, agent } = await checkpointedHarness(false);
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'edit', input: { path: 'notes.txt', oldText: 'absent text', newText: 'x' } }] },
    { toolCalls: [{ id: 'c2', name: 'bash', input: { command: 'true' } }] },
    { text: 'nothing to do' },
  );
  await agent.prompt('try');
  assert.ok(!(await fileEntries(h.store)).includes('custom'));
  h.fake.enqueue({ toolCalls: [{ id: 'c3', name: 'write', input: { path: 'plain.txt', content: 'x' } }] }, { text: 'ok' });
  await h.agent.prompt('write without checkpoints');
  assert.ok(!(await fileEntries(h.store)).includes('custom'));
});
