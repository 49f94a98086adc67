// Switching the approval mode tells the UIs once: a chat posts its state per change, and the app used to
// add its own settings change after the agent's (two state posts per switch). Failed first on main.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appHarness } from './helpers';

test('a mode switch tells the UIs once (one settings change, one agent event), and picking the mode in force tells nothing', async () => {
  const h = await appHarness();
  const count = () => ({
    settings: h.changes.filter((c) => c.kind === 'settings').length,
    modeEvents: h.changes.filter((c) => c.kind === 'agent' && c.event.type === 'approval_mode_changed').length,
  });
  await h.app.setApprovalMode('plan');
  assert.deepEqual(count(), { settings: 1, modeEvents: h.app.currentAgent ? 1 : 0 }, 'before any message');
  h.fake.enqueue({ text: 'Hello.' });
  await h.app.prompt('hi');
  h.changes.length = 0;
  await h.app.setApprovalMode('autoEdit');
  assert.deepEqual(count(), { settings: 1, modeEvents: 1 }, 'with a session: the agent event and the settings it causes, once each');
  h.changes.length = 0;
  await h.app.setApprovalMode('autoEdit');
  assert.deepEqual(count(), { settings: 0, modeEvents: 0 }, 'the mode in force: nothing to tell');
});
