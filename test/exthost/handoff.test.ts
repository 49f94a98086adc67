// "Hand Off to New Session" end to end in the real extension host against the fake provider: the command
// writes the handoff document with the session's model, the chat moves to a new session whose first entry
// is that document (in the file, in the chat, in the Sessions list's title), and the old file is unchanged.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

const DOCUMENT = '## Goal\nHANDOFF-DOC: finish the parser tests\n\n## Next Steps\n1. run the parser tests';

async function seed(api: ArborApi) {
  await fakeAdmin('reset', {});
  await api.app.session.newSession();
  await fakeAdmin('enqueue', [{ text: 'FIRST-ANSWER' }, { text: 'SECOND-ANSWER' }]);
  for (const prompt of ['FIRST-REQUEST', 'SECOND-REQUEST']) assert.equal((await api.app.prompt(prompt)).kind, 'sent', prompt);
  await waitFor('the turns to end', () => !api.app.busy);
  await fakeAdmin('reset', {});
  await fakeAdmin('rules', [{ when: { lastUserIncludes: 'Write a handoff document' }, then: { text: DOCUMENT } }]);
  return api.app.currentStore!;
}

suite('Hand Off to New Session (extension host, fake provider)', () => {
  suiteTeardown(async () => {
    await fakeAdmin('reset', {});
  });

  test('the new session opens with the handoff document: file, chat and Sessions title', async () => {
    const api = await activateArbor();
    const old = await seed(api);
    const oldText = await readFile(old.file, 'utf8');
    const outcome = await vscode.commands.executeCommand<string>('arbor.handoffSession', 'the parser tests');
    assert.equal(outcome, 'handedOff');
    await waitFor('the chat to follow the new session', () => api.app.currentStore !== undefined && api.app.currentStore.file !== old.file);
    const next = api.app.currentStore!;
    await waitFor('the handoff entry in the open session', () =>
      next.getBranch().some((e) => e.type === 'custom_message' && JSON.stringify(e).includes('HANDOFF-DOC')),
    );
    const lines = (await readFile(next.file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    assert.equal(lines[0]!.type, 'session');
    assert.equal(lines[0]!.parentSession, old.file, 'the new session names the old one as its parent');
    const handoff = lines.find((l) => l.type === 'custom_message');
    assert.ok(handoff, `the file holds the handoff document: ${JSON.stringify(lines)}`);
    assert.equal(handoff.customType, 'handoff');
    assert.equal(handoff.display, true);
    assert.match(handoff.content, /HANDOFF-DOC: finish the parser tests/);
    // The chat shows it (the view the webview renders).
    const views = api.app.snapshot({ tree: false }).conversation;
    const shown = views.find((v) => v.kind === 'custom_message' && v.text.includes('HANDOFF-DOC'));
    assert.ok(shown, `the chat shows the document: ${JSON.stringify(views)}`);
    assert.doesNotMatch(shown.text, /<\/?handoff-context>/, 'the chat shows the document, not its wrapping tags');
    // The Sessions list names it from the document, never "(empty session)".
    const listed = (await api.app.session.listSessions()).find((s) => s.file === next.file);
    assert.ok(listed, 'the new session is listed');
    assert.ok(listed.firstUserMessage || listed.name, `the listing has a title for it: ${JSON.stringify(listed)}`);
    assert.match(listed.name ?? listed.firstUserMessage ?? '', /finish the parser tests/);
    assert.equal(await readFile(old.file, 'utf8'), oldText, 'the old session is unchanged');
  });
});
