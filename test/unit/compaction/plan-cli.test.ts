import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage } from '../../../src/core/messages';
import { SessionStore } from '../../../src/session/store';
import { planCommand } from '../../../src/cli/commands/plan';
import { commands } from '../../../src/cli/commands/index';
import { chars } from './fixtures';

test('arbor-session plan prints the preparation as JSON without calling a model', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-plan-'));
  try {
    const store = await SessionStore.create({ dir, cwd: dir });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await store.appendMessage({ role: 'user', content: chars(500), timestamp: 1 })).id);
      ids.push(
        (
          await store.appendMessage({
            role: 'assistant',
            content: [{ type: 'text', text: chars(500) }, { type: 'toolCall', id: `c${i}`, name: i === 0 ? 'edit' : 'read', arguments: { path: `f${i}.ts` } }],
            api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason: 'stop', timestamp: 1,
          })
        ).id,
      );
    }
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: () => {} };
    const code = await planCommand.run([store.file, '--keep-recent-tokens', '1000', '--context-window', '3000'], io);
    assert.equal(code, 0);
    const plan = JSON.parse(out.join(''));
    assert.equal(plan.firstKeptEntryId, ids[6]);
    assert.deepEqual(plan.summarizeEntryIds, ids.slice(0, 6));
    assert.equal(plan.isSplitTurn, false);
    assert.equal(plan.turnStartEntryId, null);
    assert.equal(plan.hasPreviousSummary, false);
    assert.deepEqual(plan.modifiedFiles, ['f0.ts']);
    assert.deepEqual(plan.readFiles, ['f1.ts', 'f2.ts']);
    assert.equal(plan.shouldCompact, true, `${plan.tokensBefore} tokens exceed the 3000-token window's threshold`);
    out.length = 0;
    await planCommand.run([store.file, '--leaf', ids[1]!, '--context-window', '3000'], io);
    assert.equal(JSON.parse(out.join('')).firstKeptEntryId, null, 'nothing to compact at an early leaf');
    await assert.rejects(planCommand.run([store.file, '--keep-recent-tokens', 'lots'], io), /whole number/);
    assert.equal(commands.plan, planCommand);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
