// convertToLlm: pi's exact wrapper bytes (docs/pi-compatibility.md "Building the context") read from prompts/, bash rendering, roles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentMessage, BashExecutionMessage } from '../../../src/core/messages';
import { bashExecutionText, convertToLlm } from '../../../src/session/convert';

// pi's constants, written out independently of the templates.
const COMPACTION_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const COMPACTION_SUFFIX = '\n</summary>';
const BRANCH_PREFIX = 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
const BRANCH_SUFFIX = '</summary>';

function onlyText(messages: ReturnType<typeof convertToLlm>, index = 0): string {
  const content = messages[index]!.content;
  assert.ok(Array.isArray(content));
  assert.equal(content.length, 1);
  const block = content[0]!;
  assert.equal(block.type, 'text');
  return (block as { text: string }).text;
}

test('compaction summary is wrapped with pi bytes exactly', () => {
  const summary = 'Goal: x\n\n## Done\n- {{not a placeholder}}\n';
  const out = convertToLlm([{ role: 'compactionSummary', summary, tokensBefore: 10, timestamp: 5 }]);
  assert.equal(out[0]!.role, 'user');
  assert.equal(out[0]!.timestamp, 5);
  assert.equal(onlyText(out), COMPACTION_PREFIX + summary + COMPACTION_SUFFIX);
});

test('branch summary is wrapped with pi bytes exactly (no newline before </summary>)', () => {
  const summary = 'The user explored a branch.\n<read-files>\na.ts\n</read-files>\n';
  const out = convertToLlm([{ role: 'branchSummary', summary, fromId: 'abc', timestamp: 6 }]);
  assert.equal(onlyText(out), BRANCH_PREFIX + summary + BRANCH_SUFFIX);
});

test('user, assistant and toolResult pass through unchanged (same objects)', () => {
  const messages: AgentMessage[] = [
    { role: 'user', content: 'hi', timestamp: 1 },
    { role: 'toolResult', toolCallId: 't', toolName: 'read', content: [{ type: 'text', text: 'x' }], isError: false, timestamp: 2 },
  ];
  const out = convertToLlm(messages);
  assert.equal(out[0], messages[0]);
  assert.equal(out[1], messages[1]);
});

test('custom messages become user messages (string → one text block; blocks kept)', () => {
  const out = convertToLlm([
    { role: 'custom', customType: 'x', content: 'note', display: false, timestamp: 3 },
    { role: 'custom', customType: 'x', content: [{ type: 'image', data: 'AA', mimeType: 'image/png' }], display: true, timestamp: 4 },
  ]);
  assert.deepEqual(out[0], { role: 'user', content: [{ type: 'text', text: 'note' }], timestamp: 3 });
  assert.deepEqual(out[1], { role: 'user', content: [{ type: 'image', data: 'AA', mimeType: 'image/png' }], timestamp: 4 });
});

function bash(extra: Partial<BashExecutionMessage>): BashExecutionMessage {
  return { role: 'bashExecution', command: 'ls', output: 'a\nb', exitCode: 0, cancelled: false, truncated: false, timestamp: 9, ...extra };
}

test('bash execution rendering follows pi', () => {
  assert.equal(bashExecutionText(bash({})), 'Ran `ls`\n```\na\nb\n```');
  assert.equal(bashExecutionText(bash({ output: '' })), 'Ran `ls`\n(no output)');
  assert.equal(bashExecutionText(bash({ exitCode: 2 })), 'Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2');
  assert.equal(bashExecutionText(bash({ exitCode: undefined })), 'Ran `ls`\n```\na\nb\n```');
  assert.equal(bashExecutionText(bash({ cancelled: true, exitCode: 1 })), 'Ran `ls`\n```\na\nb\n```\n\n(command cancelled)');
  assert.equal(
    bashExecutionText(bash({ truncated: true, fullOutputPath: '/tmp/o.txt' })),
    'Ran `ls`\n```\na\nb\n```\n\n[Output truncated. Full output: /tmp/o.txt]',
  );
  assert.equal(bashExecutionText(bash({ truncated: true })), 'Ran `ls`\n```\na\nb\n```');
});

test('bash executions become user messages; excludeFromContext drops them', () => {
  const out = convertToLlm([bash({}), bash({ excludeFromContext: true, command: 'secret' })]);
  assert.equal(out.length, 1);
  assert.deepEqual(out[0], { role: 'user', content: [{ type: 'text', text: 'Ran `ls`\n```\na\nb\n```' }], timestamp: 9 });
});

test('unknown roles are not sent', () => {
  const out = convertToLlm([{ role: 'fileMention', timestamp: 1 } as unknown as AgentMessage]);
  assert.deepEqual(out, []);
});
