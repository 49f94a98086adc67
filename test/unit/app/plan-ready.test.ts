// When "Run this plan" is offered (src/app/plan-ready.ts): the rule over real session files, then through the
// app with the fake provider — a plan made in Plan mode is offered; an empty session, a reply made in Ask, an
// error reply, a turn that runs and a plan already run are not; the Plan answer to a reply made in another
// mode is not either (the mode bar used to offer any finished reply once the picker said Plan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPROVAL_MODE_CUSTOM_TYPE } from '../../../src/core/approval-modes';
import { emptyUsage, type AgentMessage } from '../../../src/core/messages';
import { planReady } from '../../../src/app/plan-ready';
import { SessionStore } from '../../../src/session/store';
import { appHarness } from './helpers';

type StopReason = 'stop' | 'toolUse' | 'error' | 'aborted' | 'length';
const reply = (text: string, stopReason: StopReason = 'stop'): AgentMessage => ({
  role: 'assistant', content: text ? [{ type: 'text', text }] : [], api: 'openai-completions', provider: 'fake', model: 'fake-1', usage: emptyUsage(), stopReason, timestamp: Date.now(),
});
const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: Date.now() });

async function store(): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-plan-ready-'));
  return SessionStore.create({ dir, cwd: dir });
}
const setMode = (s: SessionStore, mode: string) => s.appendCustomEntry(APPROVAL_MODE_CUSTOM_TYPE, { mode });
const ready = (session: SessionStore | undefined, busy = false) => planReady({ mode: 'plan', busy, session });

test('the rule: a finished reply with text written in Plan mode, the agent idle and the mode Plan', async () => {
  const s = await store();
  assert.equal(ready(undefined), false, 'no session');
  assert.equal(ready(s), false, 'an empty session');
  await s.appendMessage(user('plan it'));
  await setMode(s, 'plan');
  await s.appendMessage(reply('## Goal\nA plan.'));
  assert.equal(ready(s), true);
  assert.equal(ready(s, true), false, 'not while a turn runs');
  assert.equal(planReady({ mode: 'ask', busy: false, session: s }), false, 'not outside Plan mode');
  assert.equal(planReady({ mode: 'autoEdit', busy: false, session: s }), false);
  await s.appendLabelChange(s.getLeafId()!, 'the plan');
  assert.equal(ready(s), true, 'bookkeeping after the reply does not hide it');
});

test('the rule: not after an error, a stopped or empty reply, nor when the newest message is not a reply', async () => {
  for (const [last, why] of [[reply('half a pl', 'aborted'), 'stopped'], [reply('', 'error'), 'error'], [reply('cut', 'length'), 'cut off'], [reply('   '), 'no text'], [user('and then?'), 'a user message']] as const) {
    const s = await store();
    await s.appendMessage(user('plan it'));
    await setMode(s, 'plan');
    await s.appendMessage(reply('## Goal\nA plan.'));
    await s.appendMessage(last);
    assert.equal(ready(s), false, why);
  }
});

test('the rule: a reply written in Ask is no plan once the picker says Plan; a branch moved to keeps its own answer', async () => {
  const s = await store();
  await s.appendMessage(user('hello'));
  const askReply = await s.appendMessage(reply('Hi, how can I help?'));
  await setMode(s, 'plan');
  assert.equal(ready(s), false, 'the reply was written in Ask (no mode recorded before it)');
  await s.appendMessage(user('plan it'));
  const plan = await s.appendMessage(reply('## Goal\nA plan.'));
  assert.equal(ready(s), true);
  s.branch(askReply.id);
  assert.equal(ready(s), false, 'back on the Ask reply: it is still no plan');
  s.branch(plan.id);
  assert.equal(ready(s), true);
  await setMode(s, 'autoEdit');
  await s.appendMessage(user('Carry out the plan above'));
  await s.appendMessage(reply('Done.'));
  await setMode(s, 'plan');
  assert.equal(ready(s), false, 'the reply that carried the plan out is no plan');
});

test('through the app: offered after a plan, hidden once it runs, never on an empty session or after an error', async () => {
  const h = await appHarness();
  await h.app.setApprovalMode('plan');
  assert.equal(h.app.planReady, false, 'an empty session');
  h.fake.enqueue({ text: '## Goal\nA greeting.' });
  await h.app.prompt('plan a greeting');
  assert.equal(h.app.planReady, true);
  h.fake.enqueue({ text: 'Done.' });
  await h.app.runPlan('ask');
  assert.equal(h.app.planReady, false, 'hidden once the plan is run');
  await h.app.setApprovalMode('plan');
  assert.equal(h.app.planReady, false, 'the reply that ran it is no plan');
  h.fake.enqueue({ error: { kind: 'auth' } });
  await h.app.prompt('plan again');
  assert.equal(h.app.planReady, false, 'not after an error reply');
});

test('through the app: a reply made in Ask, then Plan picked, offers nothing', async () => {
  const h = await appHarness();
  h.fake.enqueue({ text: 'Hello.' });
  await h.app.prompt('hi');
  await h.app.setApprovalMode('plan');
  assert.equal(h.app.planReady, false);
});

test('Run this plan with no plan to run is refused with its reason, and the mode stays', async () => {
  const h = await appHarness();
  await h.app.setApprovalMode('plan');
  const outcome = await h.app.runPlan('autoEdit');
  assert.equal(outcome.kind, 'refused');
  assert.equal(outcome.kind === 'refused' && outcome.reason, 'no-plan');
  assert.equal(h.app.approvalMode, 'plan');
  assert.equal(h.fake.requests.length, 0, 'nothing was sent');
});
