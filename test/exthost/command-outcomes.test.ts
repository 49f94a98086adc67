// What reaches the user from a command, by the kind of outcome the app gave (src/app/app-outcome.ts):
// done (the action's own message, no warning), refused (a warning with the reason, logged as information
// without a stack) and an exception (an error message, logged with its stack). A refusal and a bug must
// not look the same.
import * as assert from 'node:assert/strict';
import { refused } from '../../src/app/app-outcome';
import * as forkSession from '../../src/vscode/commands/fork-session';
import * as runPlan from '../../src/vscode/commands/run-plan';
import * as labelEntryCommand from '../../src/vscode/commands/label-entry';
import * as switchHere from '../../src/vscode/commands/switch-here';
import { depsFor, FakeApp, sessionFrom, stubWindow, twoBranchEntries } from './surfaces-fixtures';

suite('commands: done, refused and failed outcomes', () => {
  test('done: the label is saved and nothing warns', async () => {
    const app = new FakeApp(await sessionFrom(twoBranchEntries()));
    const deps = depsFor(app);
    const ui = stubWindow({ showInputBox: async () => 'start' });
    try {
      assert.equal(await labelEntryCommand.run(deps, 'u1'), 'labelled');
      assert.equal(app.store!.getLabel('u1'), 'start');
      assert.deepEqual(ui.messages.filter((m) => m.level !== 'info'), []);
    } finally {
      ui.restore();
    }
  });

  test('refused: a warning with the reason, no error, no stack in the log', async () => {
    const app = new FakeApp(await sessionFrom(twoBranchEntries()));
    app.refusal = refused('busy', 'Wait for the agent to finish (or stop it) before labelling.');
    const deps = depsFor(app, { branchSummaryEnabled: false });
    const ui = stubWindow({ showInputBox: async () => 'start' });
    try {
      assert.equal(await labelEntryCommand.run(deps, 'u1'), 'refused');
      assert.equal(await forkSession.run(deps, 'u1'), false);
      assert.equal((await switchHere.run(deps, 'u1')).status, 'refused');
      const warnings = ui.messages.filter((m) => m.level === 'warning');
      assert.equal(warnings.length, 3, JSON.stringify(ui.messages));
      assert.ok(warnings.every((m) => m.text === 'Wait for the agent to finish (or stop it) before labelling.'));
      assert.deepEqual(ui.messages.filter((m) => m.level === 'error'), []);
      assert.equal(app.store!.getLabel('u1'), undefined, 'nothing was written');
      assert.ok(deps.log.lines.some((line) => /refused \(busy\)/.test(line)));
      assert.ok(!deps.log.lines.some((line) => /\n\s+at /.test(line)), 'no stack for a refusal');
    } finally {
      ui.restore();
    }
  });

  test('Run This Plan refused (no plan to run): a warning with the reason, as the chat tells it', async () => {
    const app = new FakeApp(await sessionFrom(twoBranchEntries()));
    app.refusal = refused('no-plan');
    const deps = depsFor(app);
    const ui = stubWindow({});
    try {
      assert.equal(await runPlan.run(deps, 'autoEdit'), undefined);
      const warnings = ui.messages.filter((m) => m.level === 'warning');
      assert.deepEqual(warnings.map((m) => m.text), [refused('no-plan').message], JSON.stringify(ui.messages));
      assert.ok(deps.log.lines.some((line) => /refused \(no-plan\)/.test(line)));
      app.refusal = undefined;
      assert.equal(await runPlan.run(deps, 'ask'), 'ask', 'a plan that runs tells nothing more');
      assert.equal(ui.messages.filter((m) => m.level === 'warning').length, 1);
    } finally {
      ui.restore();
    }
  });

  test('an exception: an error message, and the log has its stack', async () => {
    const app = new FakeApp(await sessionFrom(twoBranchEntries()));
    app.failure = new Error('disk on fire');
    const deps = depsFor(app);
    const ui = stubWindow({ showInputBox: async () => 'start' });
    try {
      assert.equal(await labelEntryCommand.run(deps, 'u1'), 'invalid');
      assert.ok(ui.messages.some((m) => m.level === 'error' && /Could not save the label: disk on fire/.test(m.text)), JSON.stringify(ui.messages));
      assert.deepEqual(ui.messages.filter((m) => m.level === 'warning'), []);
      assert.ok(deps.log.lines.some((line) => /disk on fire\n\s+at /.test(line)), `logged with its stack: ${deps.log.lines.join('\n')}`);
    } finally {
      ui.restore();
    }
  });
});
