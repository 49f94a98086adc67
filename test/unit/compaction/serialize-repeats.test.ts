// The transcript a summarizer reads: a tool result repeating the previous result of the same call is sent as a
// reference to it (its text is already above), and tool-call arguments are cut like tool output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializeConversation } from '../../../src/compaction/serialize';
import { emptyUsage, type AssistantMessage, type LlmMessage, type ToolResultMessage } from '../../../src/core/messages';

let n = 0;
function call(name: string, args: Record<string, unknown>): AssistantMessage {
  return { role: 'assistant', content: [{ type: 'toolCall', id: `c${++n}`, name, arguments: args }], api: 'x', provider: 'p', model: 'm', usage: emptyUsage(), stopReason: 'toolUse', timestamp: 0 };
}
function result(of: AssistantMessage, text: string, isError = false, image = false): ToolResultMessage {
  const block = of.content[0] as { id: string; name: string };
  return {
    role: 'toolResult', toolCallId: block.id, toolName: block.name, isError, timestamp: 0,
    content: [{ type: 'text', text }, ...(image ? [{ type: 'image' as const, data: 'AAAA', mimeType: 'image/png' }] : [])],
  };
}
/** A call and its result. */
function step(name: string, args: Record<string, unknown>, text: string, isError = false, image = false): LlmMessage[] {
  const c = call(name, args);
  return [c, result(c, text, isError, image)];
}
const results = (transcript: string) => transcript.split('\n\n').filter((p) => p.startsWith('[Tool result]: ')).map((p) => p.slice('[Tool result]: '.length));

const fileA = Array.from({ length: 40 }, () => 'export const a = 1;').join('\n');
const fileA2 = fileA.replace('a = 1', 'a = 2');

test('a read repeating the previous read of the same file is a reference; after an edit the new text is sent whole', () => {
  const transcript = serializeConversation([
    ...step('read', { path: 'src/a.ts' }, fileA),
    ...step('read', { path: 'src/a.ts' }, fileA),
    ...step('edit', { path: 'src/a.ts', oldText: 'a = 1', newText: 'a = 2' }, 'Edited src/a.ts'),
    ...step('read', { path: 'src/a.ts' }, fileA2),
    ...step('read', { path: 'src/b.ts' }, fileA2),
  ]);
  assert.deepEqual(results(transcript), [fileA, '[same output as the previous read(path="src/a.ts") above]', 'Edited src/a.ts', fileA2, fileA2]);
});

test('only the previous result of the same call counts: a file changed and changed back is sent whole again', () => {
  const transcript = serializeConversation([
    ...step('read', { path: 'a.ts' }, fileA),
    ...step('read', { path: 'a.ts' }, fileA2),
    ...step('read', { path: 'a.ts' }, fileA),
  ]);
  assert.deepEqual(results(transcript), [fileA, fileA2, fileA]);
});

test('same tool and output but other arguments, another error state, or an image are sent whole; a short output too', () => {
  const transcript = serializeConversation([
    ...step('bash', { command: 'npm test' }, fileA),
    ...step('bash', { command: 'npm test', timeout: 5 }, fileA),
    ...step('bash', { command: 'npm test', timeout: 5 }, fileA, true),
    ...step('screenshot', { url: 'x' }, fileA, false, true),
    ...step('screenshot', { url: 'x' }, fileA, false, true),
    ...step('bash', { command: 'ls' }, 'ok'),
    ...step('bash', { command: 'ls' }, 'ok'),
    ...step('bash', { command: 'npm test' }, fileA),
  ]);
  assert.deepEqual(results(transcript), [
    fileA, fileA, fileA, `${fileA}\n[image]`, `${fileA}\n[image]`, 'ok', 'ok',
    '[same output as the previous bash(command="npm test") above]',
  ]);
});

test('a repeat of a long output points at the earlier, truncated copy; the transcript is shorter by that copy', () => {
  const long = Array.from({ length: 500 }, () => 'line of build output').join('\n');
  const once = serializeConversation(step('bash', { command: 'npm run build' }, long));
  const twice = serializeConversation([...step('bash', { command: 'npm run build' }, long), ...step('bash', { command: 'npm run build' }, long)]);
  assert.match(once, /\[\.\.\. 8499 more characters truncated\]/);
  assert.equal(twice.length - once.length, '\n\n[Assistant tool calls]: bash(command="npm run build")\n\n[Tool result]: [same output as the previous bash(command="npm run build") above]'.length);
});

test('a call with long arguments is named by its tool in the reference', () => {
  const query = 'q'.repeat(300);
  const transcript = serializeConversation([...step('grep', { pattern: query }, fileA), ...step('grep', { pattern: query }, fileA)]);
  assert.equal(results(transcript)[1], '[same output as the previous grep call with the same arguments above]');
});

test('tool-call arguments are cut at 2,000 characters like tool output (a whole file written, an edit text)', () => {
  const content = 'x'.repeat(5000);
  const transcript = serializeConversation([
    call('write', { path: 'big.ts', content }),
    call('edit', { path: 'big.ts', edits: [{ oldText: 'y'.repeat(1500), newText: 'z'.repeat(1500) }] }),
    call('read', { path: 'small.ts', offset: 10 }),
  ]);
  const calls = transcript.split('\n\n').map((p) => p.slice('[Assistant tool calls]: '.length));
  assert.equal(calls[0], `write(path="big.ts", content="${'x'.repeat(2000)}"[... 3000 more characters truncated])`);
  const edits = JSON.stringify([{ oldText: 'y'.repeat(1500), newText: 'z'.repeat(1500) }]);
  assert.equal(calls[1], `edit(path="big.ts", edits=${edits.slice(0, 2000)}[... ${edits.length - 2000} more characters truncated])`);
  assert.equal(calls[2], 'read(path="small.ts", offset=10)');
});
