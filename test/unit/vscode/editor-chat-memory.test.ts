// Editor chats after a reload (src/vscode/editor-chat-memory.ts): a tab restored without a saved state
// takes the session its tab showed in the last window, although the tabs restored before it already saved
// the list of open chats again (they are bound before their sessions are open).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditorChatMemory } from '../../../src/vscode/editor-chat-memory';

/** A workspace state as the extension host keeps it (get and update, nothing else). */
function memento(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void values.set(key, value),
    keys: () => [...values.keys()],
  };
}

test('a stateless tab restored beside a stateful one gets the other session of the last window', async () => {
  const state = memento({ 'arbor.editorChats': ['/s/first.jsonl', '/s/second.jsonl'] });
  const memory = new EditorChatMemory(state);
  // what ChatPanels does as VS Code revives the two tabs: the first names its session, both are bound
  // (saving the open chats, whose sessions are not open yet), then the first opens its session
  memory.claim('/s/first.jsonl');
  memory.save([]);
  memory.save([]);
  memory.save(['/s/first.jsonl']);
  assert.equal(await memory.unclaimed((file) => file === '/s/first.jsonl'), '/s/second.jsonl');
  memory.save(['/s/first.jsonl', '/s/second.jsonl']);
  assert.deepEqual(memory.remembered(), ['/s/first.jsonl', '/s/second.jsonl']);
});

test('a hidden tab revived later in the window still finds its session; each session is given once', async () => {
  const memory = new EditorChatMemory(memento({ 'arbor.editorChats': ['/s/a.jsonl', '/s/b.jsonl', '/s/c.jsonl'] }));
  memory.claim('/s/a.jsonl');
  memory.save(['/s/a.jsonl']);
  assert.deepEqual(memory.remembered(), ['/s/a.jsonl', '/s/b.jsonl', '/s/c.jsonl'], 'the unrevived tabs stay remembered');
  assert.equal(await memory.unclaimed(() => false), '/s/b.jsonl');
  assert.equal(await memory.unclaimed((file) => file === '/s/c.jsonl'), undefined, 'a session a chat shows is not given to a second tab');
});

test('while the window closes its disposed tabs do not empty the list', () => {
  const state = memento();
  const memory = new EditorChatMemory(state);
  memory.save(['/s/a.jsonl', '/s/b.jsonl']);
  memory.shutdown();
  memory.save(['/s/b.jsonl']);
  memory.save([]);
  assert.deepEqual(new EditorChatMemory(state).remembered(), ['/s/a.jsonl', '/s/b.jsonl']);
});

test('sessions whose tabs the workbench did not restore are the newest beyond the restored tabs, and no restored tab takes them', async () => {
  const memory = new EditorChatMemory(memento({ 'arbor.editorChats': ['/s/a.jsonl', '/s/b.jsonl', '/s/c.jsonl'] }));
  assert.deepEqual(memory.lost(1), ['/s/b.jsonl', '/s/c.jsonl']);
  assert.equal(await memory.unclaimed(() => false), '/s/a.jsonl', 'the restored tab without a state gets the one left');
  assert.deepEqual(new EditorChatMemory(memento({ 'arbor.editorChats': ['/s/a.jsonl'] })).lost(2), [], 'more tabs than sessions: nothing is lost');
});
