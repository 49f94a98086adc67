import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appHarness } from './helpers';

test('renaming the current session (a session_info append) is reported as a session change with the new name', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'Hi.' });
  await h.app.prompt('Say hi');
  h.changes.length = 0;
  await h.app.currentStore!.appendSessionInfo('Renamed here');
  const sessions = h.changes.filter((c) => c.kind === 'session');
  assert.equal(sessions.length, 1, `one session change, got ${JSON.stringify(h.changes.map((c) => c.kind))}`);
  assert.equal(sessions[0]!.kind === 'session' ? sessions[0]!.session?.name : undefined, 'Renamed here');
});
