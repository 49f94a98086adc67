// Every surface command against a fake app over a real session file, with the pickers and messages of
// vscode.window stubbed: good paths, bad input (empty instructions, unknown ids, no session, cancelled
// pickers), failures and cancellations that must leave the session where it was.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseArborSettings } from '../../src/app/settings';
import { readRawSettings } from '../../src/vscode/settings/arbor-settings';
import * as compactSession from '../../src/vscode/commands/compact-session';
import { CompactionNotDone, failed, skipped } from '../../src/compaction';
import * as copyEntry from '../../src/vscode/commands/copy-entry';
import * as exportSession from '../../src/vscode/commands/export-session';
import * as forkSession from '../../src/vscode/commands/fork-session';
import * as handoffSession from '../../src/vscode/commands/handoff-session';
import * as insertBranchSummary from '../../src/vscode/commands/insert-branch-summary';
import * as labelEntryCommand from '../../src/vscode/commands/label-entry';
import * as openSessionFile from '../../src/vscode/commands/open-session-file';
import * as revealInChat from '../../src/vscode/commands/reveal-in-chat';
import * as sessionsDelete from '../../src/vscode/commands/sessions-delete';
import * as sessionsRename from '../../src/vscode/commands/sessions-rename';
import * as switchBranch from '../../src/vscode/commands/switch-branch';
import * as switchHere from '../../src/vscode/commands/switch-here';
import * as switchHereWithSummary from '../../src/vscode/commands/switch-here-with-summary';
import * as toggleAutoCompaction from '../../src/vscode/commands/toggle-auto-compaction';
import { SURFACE_COMMANDS } from '../../src/vscode/surfaces';
import { EXTENSION_ID } from './helpers';
import { FakeApp, depsFor, pickLabel, sessionFrom, stubWindow, tempDir, twoBranchEntries, userEntry, assistantEntry } from './surfaces-fixtures';

async function twoBranchApp(): Promise<FakeApp> {
  return new FakeApp(await sessionFrom(twoBranchEntries()));
}

/** A long linear session, so there is something to compact with the default settings. */
async function longApp(): Promise<FakeApp> {
  const entries: Record<string, unknown>[] = [];
  let parent: string | null = null;
  const filler = 'word '.repeat(4000);
  for (let i = 0; i < 40; i++) {
    const id = `m${i}`;
    entries.push(i % 2 === 0 ? userEntry(id, parent, `question ${i} ${filler}`) : assistantEntry(id, parent, `answer ${i} ${filler}`, (i + 1) * 4200));
    parent = id;
  }
  return new FakeApp(await sessionFrom(entries));
}

suite('surfaces: commands', () => {
  test('every surface command is contributed in package.json (category Arbor) and registered', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (extension.packageJSON.contributes.commands as { command: string; category?: string }[]);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const command of SURFACE_COMMANDS) {
      const entry = contributed.find((c) => c.command === command.id);
      assert.ok(entry, `${command.id} contributed`);
      assert.equal(entry.category, 'Arbor', command.id);
      await extension.activate();
      assert.ok(registered.has(command.id) || (await vscode.commands.getCommands(true)).includes(command.id), `${command.id} registered`);
    }
  });

  test('without a session every entry command says so and does nothing', async () => {
    const app = new FakeApp(undefined);
    const deps = depsFor(app);
    const ui = stubWindow();
    try {
      assert.equal((await switchHere.run(deps, 'u1')).status, 'invalid');
      assert.equal((await switchBranch.run(deps)).status, 'invalid');
      assert.equal(await compactSession.run(deps), 'invalid');
      assert.equal(await labelEntryCommand.run(deps, 'u1'), 'invalid');
      assert.equal(await forkSession.run(deps), false);
      assert.equal(await copyEntry.run(deps, 'u1'), undefined);
      assert.equal(ui.messages.filter((m) => /No Arbor session is open/.test(m.text)).length, 6);
      assert.deepEqual(app.calls, []);
    } finally {
      ui.restore();
    }
  });

  test('unknown entry ids and missing arguments get a clear error', async () => {
    const app = await twoBranchApp();
    const deps = depsFor(app);
    const ui = stubWindow();
    try {
      assert.equal((await switchHere.run(deps, 'nope')).status, 'invalid');
      assert.equal((await switchHereWithSummary.run(deps)).status, 'invalid');
      assert.equal(await revealInChat.run(deps, 'nope'), false);
      assert.equal(await forkSession.run(deps, 'nope'), false);
      assert.equal(await insertBranchSummary.run(deps, { id: 'nope' }), 'invalid');
      assert.ok(ui.messages.some((m) => m.level === 'error' && /^Unknown entry "nope": it is not in this session\.$/.test(m.text)));
      assert.ok(ui.messages.some((m) => m.level === 'error' && /No entry was given/.test(m.text)));
      assert.deepEqual(app.calls, []);
    } finally {
      ui.restore();
    }
  });

  test('Switch Here offers the summary dialog (setting on); dismissing it keeps the position', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow();
    try {
      const outcome = await switchHere.run(depsFor(app), 'a2');
      assert.equal(outcome.status, 'cancelled');
      assert.equal(ui.pickers.length, 1);
      assert.deepEqual((ui.pickers[0]!.items as { label: string }[]).map((i) => i.label.replace(/^\$\([^)]+\) /, '')), [
        'No summary',
        'Summarize',
        'Summarize with my instructions',
      ]);
      assert.deepEqual(app.called('navigate'), []);
      assert.equal(app.store!.getLeafId(), 'u4');
    } finally {
      ui.restore();
    }
  });

  test('Switch Here with the setting off switches without asking', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow();
    try {
      const outcome = await switchHere.run(depsFor(app, { branchSummaryEnabled: false }), 'a2');
      assert.equal(outcome.status, 'switched');
      assert.equal(ui.pickers.length, 0);
      assert.equal(app.store!.getLeafId(), 'a2');
      assert.deepEqual(app.called('navigate')[0]!.args, ['a2', { summarize: false, signal: undefined }]);
    } finally {
      ui.restore();
    }
  });

  test('Switch Here with Summary… → Summarize with my instructions passes them; empty ones mean a plain summary', async () => {
    const app = await twoBranchApp();
    app.navigateImpl = async () => ({ cancelled: false, newLeafId: 'sum1' });
    let answer = '  focus on the failures  ';
    const ui = stubWindow({ showQuickPick: pickLabel('Summarize with my instructions'), showInputBox: () => answer });
    try {
      const deps = depsFor(app, { branchSummaryEnabled: false });
      assert.equal((await switchHereWithSummary.run(deps, 'a2')).status, 'switched', 'asks even with the setting off');
      assert.deepEqual(app.called('navigate')[0]!.args, ['a2', { summarize: true, customInstructions: 'focus on the failures', signal: 'signal' }]);
      const validate = (ui.inputs[0] as { validateInput: (v: string) => unknown }).validateInput;
      assert.ok(validate('   '), 'the input box refuses empty instructions');
      answer = '';
      await switchHereWithSummary.run(deps, 'a2');
      assert.deepEqual(app.called('navigate')[1]!.args, ['a2', { summarize: true, signal: 'signal' }]);
      ui.restore();
      const ui2 = stubWindow({ showQuickPick: pickLabel('Summarize with my instructions'), showInputBox: () => undefined });
      await switchHereWithSummary.run(deps, 'a2');
      ui2.restore();
      assert.equal(app.called('navigate').length, 2, 'Esc in the input box cancels');
    } finally {
      ui.restore();
    }
  });

  test('a cancelled or failed summary leaves the user where they were, with a clear message', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow({ showQuickPick: pickLabel('Summarize') });
    try {
      app.navigateImpl = async () => ({ cancelled: true, message: 'Branch summarization cancelled', newLeafId: 'u4' });
      const cancelled = await switchHere.run(depsFor(app), 'a2');
      assert.equal(cancelled.status, 'cancelled');
      assert.ok(ui.messages.some((m) => m.level === 'info' && /Branch summarization cancelled\. You are still where you were/.test(m.text)));
      app.navigateImpl = async () => {
        throw new Error('Branch summary failed: 500 from provider');
      };
      const failed = await switchHere.run(depsFor(app), 'a2');
      assert.equal(failed.status, 'failed');
      assert.ok(ui.messages.some((m) => m.level === 'error' && /500 from provider\. You are still where you were/.test(m.text)));
      assert.equal(app.store!.getLeafId(), 'u4');
    } finally {
      ui.restore();
    }
  });

  test('switching to a user message puts its text into the chat input', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow({ showQuickPick: pickLabel('No summary') });
    try {
      assert.equal((await switchHere.run(depsFor(app), 'u2')).status, 'switched');
      assert.equal(app.store!.getLeafId(), 'a1', 'a user message target moves to its parent');
      assert.deepEqual(app.called('setChatInput')[0]!.args, ['Try approach A']);
      const again = await switchHere.run(depsFor(app), 'a1');
      assert.equal(again.status, 'no-op');
    } finally {
      ui.restore();
    }
  });

  test('Switch Branch lists tips and branch points; picking one switches', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow({
      showQuickPick: (items: { label: string; entryId?: string }[]) => (items[0]?.entryId ? items.find((i) => i.entryId === 'a2') : items.find((i) => i.label.includes('No summary'))),
    });
    try {
      const outcome = await switchBranch.run(depsFor(app));
      assert.equal(outcome.status, 'switched');
      const ids = (ui.pickers[0]!.items as { entryId: string }[]).map((i) => i.entryId).sort();
      assert.deepEqual(ids, ['a1', 'a2', 'u4'], 'two tips and the branch point');
      assert.equal(app.store!.getLeafId(), 'a2');
    } finally {
      ui.restore();
    }
    const dismissed = stubWindow();
    try {
      assert.equal((await switchBranch.run(depsFor(app))).status, 'cancelled');
    } finally {
      dismissed.restore();
    }
  });

  test('Label Entry sets, keeps (Esc), and removes labels', async () => {
    const app = await twoBranchApp();
    let answer: string | undefined = '  plan B  ';
    const ui = stubWindow({ showInputBox: () => answer });
    try {
      assert.equal(await labelEntryCommand.run(depsFor(app), 'u3'), 'labelled');
      assert.equal(app.store!.getLabel('u3'), 'plan B');
      answer = undefined;
      assert.equal(await labelEntryCommand.run(depsFor(app), 'u3'), 'cancelled');
      assert.equal(app.store!.getLabel('u3'), 'plan B');
      answer = '';
      assert.equal(await labelEntryCommand.run(depsFor(app), 'u3'), 'removed');
      assert.equal(app.store!.getLabel('u3'), undefined);
      assert.equal(await labelEntryCommand.run(depsFor(app), 'u2'), 'cancelled', 'empty text on an unlabelled entry does nothing');
    } finally {
      ui.restore();
    }
  });

  test('Label Entry from the palette picks from the current branch', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow({ showQuickPick: (items: { entryId: string }[]) => items.find((i) => i.entryId === 'a3'), showInputBox: () => 'from palette' });
    try {
      assert.equal(await labelEntryCommand.run(depsFor(app)), 'labelled');
      const offered = (ui.pickers[0]!.items as { entryId: string }[]).map((i) => i.entryId);
      assert.deepEqual(offered, ['u4', 'c1', 'a3', 'u3', 'a1', 'u1'], 'newest first, only the current path');
      assert.equal(app.store!.getLabel('a3'), 'from palette');
    } finally {
      ui.restore();
    }
  });

  test('Fork Session forks at the given entry, or at the current position from the palette', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow();
    try {
      assert.equal(await forkSession.run(depsFor(app), 'a2'), true);
      assert.equal(await forkSession.run(depsFor(app)), true);
      assert.deepEqual(app.called('forkSession').map((c) => c.args[0]), ['a2', 'u4']);
    } finally {
      ui.restore();
    }
  });

  test("Insert This Branch's Summary Here: other branches only, newest tip, optional instructions", async () => {
    const app = await twoBranchApp();
    let answer: string | undefined = '';
    const ui = stubWindow({ showInputBox: () => answer });
    try {
      assert.equal(await insertBranchSummary.run(depsFor(app), 'a3'), 'invalid', 'the current branch has nothing to carry');
      assert.ok(ui.messages.some((m) => /on the current branch/.test(m.text)));
      assert.equal(await insertBranchSummary.run(depsFor(app), 'u2'), 'inserted');
      assert.deepEqual(app.called('insertBranchSummary')[0]!.args, ['a2', undefined]);
      answer = 'what failed';
      await insertBranchSummary.run(depsFor(app), 'u2');
      assert.deepEqual(app.called('insertBranchSummary')[1]!.args, ['a2', 'what failed']);
      answer = undefined;
      assert.equal(await insertBranchSummary.run(depsFor(app), 'u2'), 'cancelled');
      assert.equal(app.called('insertBranchSummary').length, 2);
    } finally {
      ui.restore();
    }
  });

  test('Compact Session: Esc at the instructions or at the preview cancels; Compact passes trimmed instructions', async () => {
    const app = await longApp();
    let instructions: string | undefined;
    let action = 'Cancel';
    const ui = stubWindow({ showInputBox: () => instructions, showQuickPick: (items: { label: string }[]) => items.find((i) => i.label.endsWith(action)) });
    try {
      instructions = undefined;
      assert.equal(await compactSession.run(depsFor(app)), 'cancelled');
      assert.equal(ui.pickers.length, 0, 'no preview after Esc');
      instructions = 'keep the API decisions';
      assert.equal(await compactSession.run(depsFor(app)), 'cancelled');
      const preview = ui.pickers[0]!;
      assert.match(String((preview.options as { title: string }).title), /Compact: ~[\d.]+k → ~[\d.]+k tokens/);
      assert.match(String((preview.items as { detail?: string }[])[0]!.detail), /Summarizes \d+ older messages .* keeps the newest \d+/);
      assert.deepEqual(app.called('compact'), []);
      action = 'Compact';
      instructions = '   ';
      assert.equal(await compactSession.run(depsFor(app)), 'compacted');
      assert.deepEqual(app.called('compact')[0]!.args, [undefined, undefined], 'empty instructions: a general summary');
      instructions = ' keep the API decisions ';
      action = 'Edit summary before saving';
      await compactSession.run(depsFor(app));
      assert.deepEqual(app.called('compact')[1]!.args, ['keep the API decisions', 'review']);
    } finally {
      ui.restore();
    }
  });

  test('Compact Session: nothing to compact, cancelled and failed runs say so', async () => {
    const small = await twoBranchApp();
    const ui = stubWindow({ showInputBox: () => '', showQuickPick: pickLabel('Compact') });
    try {
      assert.equal(await compactSession.run(depsFor(small)), 'nothing');
      assert.ok(ui.messages.some((m) => /Nothing to compact/.test(m.text)));
      const app = await longApp();
      app.compactImpl = async () => {
        throw new CompactionNotDone({ status: 'cancelled' });
      };
      assert.equal(await compactSession.run(depsFor(app)), 'cancelled');
      assert.ok(ui.messages.some((m) => /Compaction cancelled\. The session is unchanged/.test(m.text)));
      app.compactImpl = async () => {
        throw new CompactionNotDone(failed('manual', 'provider down'));
      };
      assert.equal(await compactSession.run(depsFor(app)), 'failed');
      assert.ok(ui.messages.some((m) => m.level === 'error' && /provider down\. The session is unchanged/.test(m.text)));
      // The command words the failure itself from the typed cause: never "Compaction failed: Compaction failed: …".
      assert.ok(!ui.messages.some((m) => /Compaction failed: Compaction failed/.test(m.text)), JSON.stringify(ui.messages));
      // The outcome is typed: a failure whose words mention a cancel or "nothing to compact" is still a failure.
      app.compactImpl = async () => {
        throw new CompactionNotDone({ status: 'failed', errorMessage: 'Compaction failed: upstream cancelled the request; nothing to compact was sent' });
      };
      assert.equal(await compactSession.run(depsFor(app)), 'failed');
      app.compactImpl = async () => {
        throw new CompactionNotDone(skipped('already-compacted'));
      };
      assert.equal(await compactSession.run(depsFor(app)), 'nothing');
    } finally {
      ui.restore();
    }
  });

  test('Hand Off to New Session: focus passed with handoff; Esc cancels; a typed failure says so', async () => {
    const app = await longApp();
    let focus: string | undefined = ' the parser tests ';
    const ui = stubWindow({ showInputBox: () => focus });
    try {
      assert.equal(await handoffSession.run(depsFor(app)), 'handedOff');
      assert.deepEqual(app.called('compact')[0]!.args, ['the parser tests', undefined, 'handoff']);
      focus = undefined;
      assert.equal(await handoffSession.run(depsFor(app)), 'cancelled');
      assert.equal(app.called('compact').length, 1);
      focus = '';
      app.compactImpl = async () => {
        throw new CompactionNotDone({ status: 'failed', errorMessage: 'Compaction failed: no model produced a handoff document' });
      };
      assert.equal(await handoffSession.run(depsFor(app)), 'failed');
      assert.ok(ui.messages.some((m) => m.level === 'error' && /Handoff failed: .*handoff document\. The session is unchanged/.test(m.text)));
    } finally {
      ui.restore();
    }
  });

  test('Export Session writes Markdown and HTML, backing up a file it replaces', async () => {
    const app = await twoBranchApp();
    const dir = tempDir();
    const ui = stubWindow();
    try {
      const md = vscode.Uri.file(join(dir, 'out.md'));
      await exportSession.run(depsFor(app), undefined, md, 'md');
      const text = readFileSync(md.fsPath, 'utf8');
      assert.match(text, /## User\n\nFirst question/);
      assert.match(text, /Continue with B/);
      assert.doesNotMatch(text, /Try approach A/, 'only the current branch is exported');
      await exportSession.run(depsFor(app), undefined, md, 'md');
      assert.equal(readdirSync(dir).filter((f) => f.endsWith('.bak')).length, 1, 'the replaced file was kept');
      const html = vscode.Uri.file(join(dir, 'out.html'));
      await exportSession.run(depsFor(app), { file: app.store!.file }, html, 'html');
      assert.match(readFileSync(html.fsPath, 'utf8'), /<!DOCTYPE html>[\s\S]*Continue with B/);
      assert.equal(await exportSession.run(depsFor(app)), undefined, 'dismissed format picker');
    } finally {
      ui.restore();
    }
  });

  test('issue #24: Export Session asks before replacing a protected file (AGENTS.md), like every other writer', async () => {
    const app = await twoBranchApp();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const agents = join(folder, 'AGENTS.md');
    const previous = existsSync(agents) ? readFileSync(agents, 'utf8') : undefined;
    writeFileSync(agents, '# rules\n');
    let answer: string | undefined;
    const ui = stubWindow({ showWarningMessage: () => answer });
    try {
      assert.equal(await exportSession.run(depsFor(app), undefined, vscode.Uri.file(agents), 'md'), undefined, 'declined');
      assert.equal(readFileSync(agents, 'utf8'), '# rules\n', 'not written without a yes');
      assert.ok(ui.messages.some((m) => m.level === 'warning' && m.text.includes('AGENTS.md')), JSON.stringify(ui.messages));
      answer = 'Export Anyway';
      assert.ok(await exportSession.run(depsFor(app), undefined, vscode.Uri.file(agents), 'md'));
      assert.match(readFileSync(agents, 'utf8'), /## User/, 'written once confirmed');
    } finally {
      ui.restore();
      if (previous === undefined) rmSync(agents, { force: true });
      else writeFileSync(agents, previous);
      for (const name of readdirSync(folder).filter((f) => f.startsWith('AGENTS.md.') && f.endsWith('.bak'))) rmSync(join(folder, name), { force: true });
    }
  });

  test('Export Session offers Open, which opens the exported file in an editor', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow({ showInformationMessage: (_text: string, ...actions: unknown[]) => actions.find((a) => a === 'Open') });
    try {
      const md = vscode.Uri.file(join(tempDir(), 'opened.md'));
      await exportSession.run(depsFor(app), undefined, md, 'md');
      const opened = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === md.fsPath);
      for (let i = 0; i < 100 && !opened(); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(ui.messages.some((m) => m.level === 'info' && m.text.includes('opened.md')), 'the export is reported');
      assert.ok(opened(), 'Open showed the exported file');
    } finally {
      ui.restore();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('Open Session File refuses a file that is not a session and keeps the current one', async () => {
    const app = await twoBranchApp();
    const before = app.store;
    const bad = join(tempDir(), 'notes.jsonl');
    writeFileSync(bad, 'hello\n');
    const ui = stubWindow({ showOpenDialog: async () => undefined });
    try {
      assert.equal(await openSessionFile.run(depsFor(app), bad), false);
      assert.ok(ui.messages.some((m) => m.level === 'error' && /Could not open the session/.test(m.text)));
      assert.equal(app.store, before);
      assert.equal(await openSessionFile.run(depsFor(app)), false, 'dismissed file dialog');
      const other = await sessionFrom([userEntry('x1', null, 'other')]);
      assert.equal(await openSessionFile.run(depsFor(app), vscode.Uri.file(other.file)), true);
      assert.equal(app.store!.file, other.file);
      assert.equal(readFileSync(bad, 'utf8'), 'hello\n', 'the bad file is untouched');
    } finally {
      ui.restore();
    }
  });

  test('Sessions: delete asks first and refuses the open session; rename writes the name', async () => {
    const app = await twoBranchApp();
    const other = await sessionFrom([userEntry('x1', null, 'other')]);
    let confirm: string | undefined;
    const ui = stubWindow({ showWarningMessage: () => confirm });
    try {
      assert.equal(await sessionsDelete.run(depsFor(app), { file: app.store!.file }), false);
      assert.ok(existsSync(app.store!.file));
      confirm = undefined;
      assert.equal(await sessionsDelete.run(depsFor(app), { file: other.file }), false);
      assert.ok(existsSync(other.file), 'kept when the confirmation is dismissed');
      confirm = 'Delete';
      assert.equal(await sessionsDelete.run(depsFor(app), { file: other.file }), true);
      assert.ok(!existsSync(other.file));
      assert.equal(await sessionsDelete.run(depsFor(app), undefined), false);
      assert.equal(await sessionsRename.run(depsFor(app), { file: app.store!.file }, 'My session'), true);
      assert.equal(app.store!.getSessionName(), 'My session');
    } finally {
      ui.restore();
    }
  });

  test('Copy puts the entry text on the clipboard; Reveal in Chat asks the app', async () => {
    const app = await twoBranchApp();
    const ui = stubWindow();
    try {
      assert.equal(await copyEntry.run(depsFor(app), 'u1'), 'First question\nsecond line');
      assert.equal(await vscode.env.clipboard.readText(), 'First question\nsecond line');
      assert.equal(await revealInChat.run(depsFor(app), 'a1'), true);
      assert.deepEqual(app.called('revealInChat')[0]!.args, ['a1']);
    } finally {
      ui.restore();
    }
  });

  test('Toggle Auto-Compaction flips arbor.compaction.enabled', async () => {
    const app = await twoBranchApp();
    const config = () => vscode.workspace.getConfiguration('arbor.compaction');
    const deps = depsFor(app);
    // the live configuration, read the way the extension's one reader reads it
    deps.settings = () => parseArborSettings(readRawSettings()).settings;
    const ui = stubWindow();
    try {
      assert.equal(config().get('enabled'), true);
      assert.equal(await toggleAutoCompaction.run(deps), false);
      assert.equal(config().get('enabled'), false);
      assert.equal(await toggleAutoCompaction.run(deps), true);
      assert.equal(config().get('enabled'), true);
    } finally {
      ui.restore();
      await config().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
