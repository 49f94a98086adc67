import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../../src/cli/commands/index';
import { parseBranchSummarySettings } from '../../../src/branch/settings';
import { TreeSession, call, chars } from './helpers';

async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const command = commands['branch-plan'];
  assert.ok(command, 'branch-plan is registered');
  let code: number;
  try {
    code = await command.run(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  } catch (error) {
    return { code: -1, out: out.join(''), err: (error as Error).message };
  }
  return { code, out: out.join(''), err: err.join('') };
}

test('branch-plan prints one JSON object with the switch plan, without a model', async () => {
  const t = await TreeSession.create();
  try {
    const u1 = await t.user('start');
    const a1 = await t.assistant('ok');
    const u2 = await t.user(chars(300));
    const a2 = await t.assistant('edited', [call('edit', { path: 'src/a.ts' }), call('read', { path: 'src/b.ts' })]);
    const r = await t.toolResult('output');
    const a3 = await t.assistant(chars(50));
    t.at(a1);
    const v = await t.user('another way');

    const { code, out } = await runCli([t.store.file, '--from', a3, '--to', v, '--budget', '200']);
    assert.equal(code, 0);
    const plan = JSON.parse(out);
    assert.equal(plan.commonAncestorId, a1);
    assert.deepEqual(plan.collectedEntryIds, [u2, a2, r, a3]);
    assert.deepEqual(plan.includedEntryIds, [a2, a3], 'tool result skipped, the 300-token user message does not fit');
    assert.equal(plan.newLeafId, a1);
    assert.equal(plan.editorText, 'another way');
    assert.deepEqual(plan.readFiles, ['src/b.ts']);
    assert.deepEqual(plan.modifiedFiles, ['src/a.ts']);

    const toAssistant = JSON.parse((await runCli([t.store.file, '--from', a3, '--to', u1])).out);
    assert.equal(toAssistant.newLeafId, null, 'root user message → before the first entry');
    assert.equal(toAssistant.editorText, 'start');
    const down = JSON.parse((await runCli([t.store.file, '--from', a1, '--to', a3])).out);
    assert.deepEqual(down.collectedEntryIds, []);
    assert.equal(down.newLeafId, a3);
    assert.equal(down.editorText, null);
    assert.ok(down.tokenBudget > 0, 'a default budget is used without --budget');
  } finally {
    await t.dispose();
  }
});

test('branch-plan rejects missing options, unknown ids and bad budgets', async () => {
  const t = await TreeSession.create();
  try {
    const u = await t.user('x');
    assert.match((await runCli([t.store.file, '--to', u])).err, /missing --from/);
    assert.match((await runCli([t.store.file, '--from', u])).err, /missing --to/);
    assert.match((await runCli([t.store.file, '--from', u, '--to', 'nope'])).err, /no entry with id nope/);
    assert.match((await runCli([t.store.file, '--from', u, '--to', u, '--budget', 'lots'])).err, /--budget expects a whole number, got "lots"/);
  } finally {
    await t.dispose();
  }
});

test('settings: enabled defaults to true, reserveTokens to 16384; bad values warn and keep defaults', () => {
  assert.deepEqual(parseBranchSummarySettings(undefined), { settings: { enabled: true, reserveTokens: 16384 }, warnings: [] });
  assert.deepEqual(parseBranchSummarySettings({ enabled: false, reserveTokens: 8000 }).settings, { enabled: false, reserveTokens: 8000 });
  const bad = parseBranchSummarySettings({ enabled: 'yes', reserveTokens: -1 });
  assert.deepEqual(bad.settings, { enabled: true, reserveTokens: 16384 });
  assert.equal(bad.warnings.length, 2);
  assert.match(bad.warnings[0]!, /arbor\.branchSummary\.enabled/);
  assert.match(bad.warnings[1]!, /arbor\.branchSummary\.reserveTokens/);
  const partial = parseBranchSummarySettings({ enabled: false, reserveTokens: 1.5 });
  assert.deepEqual(partial.settings, { enabled: false, reserveTokens: 16384 });
  assert.equal(parseBranchSummarySettings('nope').warnings.length, 1);
});
