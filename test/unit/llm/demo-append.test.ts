import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendEdit, appendIntent, demoReply, intentFor } from '../../../src/llm/demo/script';

const TOOLS = new Set(['read', 'write', 'edit', 'ls', 'find', 'grep', 'bash']);

test('"add … to FILE" reads first and never writes over the file', () => {
  assert.deepEqual(appendIntent('add a line "Demo was here" to README.md'), { path: 'README.md', text: 'Demo was here' });
  assert.deepEqual(intentFor('add a line "Demo was here" to README.md', TOOLS), { name: 'read', arguments: { path: 'README.md' } });
  assert.equal(appendIntent('add a new file to notes.txt'), undefined);
  assert.equal(intentFor('create hello.txt with Hello world', TOOLS)?.name, 'write');
});

test('the append edit anchors on enough trailing lines to be unique', () => {
  const read = ['     1\t}', '     2\tlast();', '     3\t}', '     4\t', ''].join('\n');
  assert.deepEqual(appendEdit('a.js', 'more();', read), {
    name: 'edit',
    arguments: { path: 'a.js', oldText: 'last();\n}', newText: 'last();\n}\nmore();' },
  });
  assert.equal(appendEdit('empty.txt', 'x', ''), undefined);
});

test('after the read result the demo asks for the edit, after the edit it reports', () => {
  const user = { role: 'user', content: 'append "two" to notes.txt' };
  const readCall = { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read', arguments: '{"path":"notes.txt"}' } }] };
  const readResult = { role: 'tool', tool_call_id: 'c1', content: '     1\tone\n' };
  const step2 = demoReply({ messages: [user, readCall, readResult], tools: [...TOOLS].map((name) => ({ function: { name } })) });
  assert.deepEqual(step2.toolCalls, [{ name: 'edit', arguments: { path: 'notes.txt', oldText: 'one', newText: 'one\ntwo' } }]);
  const editCall = { role: 'assistant', content: '', tool_calls: [{ function: { name: 'edit', arguments: '{}' } }] };
  const step3 = demoReply({ messages: [user, readCall, readResult, editCall, { role: 'tool', tool_call_id: 'c2', content: 'Edited notes.txt' }] });
  assert.deepEqual(step3.toolCalls, []);
  assert.match(step3.text, /Edited notes\.txt/);
});
