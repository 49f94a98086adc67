// pi 1.5 entries in the context: context_edit (also in what compaction summarizes), system-role messages
// (per provider) and compaction.systemMessage; all failed on f262ede (edits ignored, system dropped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareCompaction } from '../../../src/compaction/prepare';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/compaction/settings';
import { serializeConversation } from '../../../src/compaction/serialize';
import type { AgentMessage, SystemMessage } from '../../../src/core/messages';
import { toAnthropicMessages } from '../../../src/llm/convert-anthropic';
import { toOpenAIMessages } from '../../../src/llm/convert-openai';
import { buildSessionContext } from '../../../src/session/context';
import { convertToLlm } from '../../../src/session/convert';
import type { SessionEntry } from '../../../src/session/entries';
import { SessionStore } from '../../../src/session/store';
import { assistant, msg, nextTimestamp, tempDir, texts, user } from './helpers';

const system = (content: string): SystemMessage => ({ role: 'system', content, timestamp: 5 });
const edit = (id: string, parentId: string, targetId: string, content: string | null): SessionEntry =>
  ({ type: 'context_edit', id, parentId, timestamp: nextTimestamp(), targetId, replacement: content === null ? null : { content } }) as SessionEntry;

test('context_edit replaces or omits its target in the context; the latest edit wins; other branches unaffected', () => {
  const entries: SessionEntry[] = [
    msg('1', null, user('keep')),
    msg('2', '1', user('secret')),
    msg('3', '2', assistant('answer')),
    edit('4', '3', '2', 'first edit'),
    edit('5', '4', '2', '[removed]'),
    edit('6', '5', '3', null),
    msg('7', '3', user('other branch')),
  ];
  assert.deepEqual(texts(buildSessionContext(entries, '6').messages), ['keep', '[removed]']);
  assert.deepEqual(texts(buildSessionContext(entries, '7').messages), ['keep', 'secret', 'answer', 'other branch']);
  const assistantText = buildSessionContext(entries, '5').messages[2] as { content: unknown };
  assert.deepEqual(assistantText.content, [{ type: 'text', text: 'answer' }]);
});

test('an edit appended to an open session changes the next context (the cached context is not just extended)', async (t) => {
  const store = await SessionStore.create({ dir: tempDir(t), cwd: '/w' });
  const target = await store.appendMessage(user('password 1234'));
  await store.appendMessage(assistant('ok'));
  assert.deepEqual(texts(store.buildContext().messages), ['password 1234', 'ok']);
  await (store as unknown as { append(fields: object): Promise<unknown> }).append({
    type: 'context_edit',
    targetId: target.id,
    replacement: { content: 'password [removed]' },
  });
  assert.deepEqual(texts(store.buildContext().messages), ['password [removed]', 'ok']);
  const reopened = await SessionStore.open(store.file);
  assert.deepEqual(reopened.loadReport, []);
  assert.deepEqual(texts(reopened.buildContext().messages), ['password [removed]', 'ok']);
});

test('compaction summarizes the projected content: an omitted or replaced message never reaches the summary', () => {
  const big = 'x'.repeat(4000);
  const entries: SessionEntry[] = [
    msg('1', null, user(`hunter2 ${big}`)),
    msg('2', '1', assistant(`reply ${big}`)),
    msg('3', '2', user(`dropped ${big}`)),
    msg('4', '3', assistant(big)),
    edit('5', '4', '1', 'the password was removed'),
    edit('6', '5', '3', null),
    msg('7', '6', user(big)),
    msg('8', '7', assistant(big)),
  ];
  const prep = prepareCompaction(entries, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 1500 })!;
  const text = serializeConversation(convertToLlm(prep.messagesToSummarize));
  assert.ok(text.includes('the password was removed'), text.slice(0, 200));
  assert.ok(!text.includes('hunter2') && !text.includes('dropped'));
});

test('system messages reach the context and each provider: OpenAI in place as system, Anthropic in place as user text', () => {
  const entries: SessionEntry[] = [msg('1', null, user('hi')), msg('2', '1', system('Answer in French.') as AgentMessage), msg('3', '2', user('go'))];
  const llm = convertToLlm(buildSessionContext(entries).messages);
  assert.deepEqual(llm.map((m) => m.role), ['user', 'system', 'user']);
  const openai = toOpenAIMessages('base prompt', llm);
  assert.deepEqual(openai.map((m) => m.role), ['system', 'user', 'system', 'user']);
  assert.equal(openai[2]!.content, 'Answer in French.');
  const anthropic = toAnthropicMessages(llm, false);
  assert.ok(JSON.stringify(anthropic).includes('<system-message>\\nAnswer in French.\\n</system-message>'));
});

test('compaction.systemMessage comes before the summary; system messages in the kept part are dropped (pi 1.5)', () => {
  const entries: SessionEntry[] = [
    msg('1', null, system('old prompt') as AgentMessage),
    msg('2', '1', user('kept')),
    msg('3', '2', system('kept-range system') as AgentMessage),
    {
      type: 'compaction', id: '4', parentId: '3', timestamp: nextTimestamp(), summary: 'S', firstKeptEntryId: '2', tokensBefore: 10,
      systemMessage: system('current prompt'),
    } as SessionEntry,
  ];
  const roles = buildSessionContext(entries).messages.map((m) => m.role);
  assert.deepEqual(roles, ['system', 'compactionSummary', 'user']);
  assert.equal((buildSessionContext(entries).messages[0] as SystemMessage).content, 'current prompt');
});
