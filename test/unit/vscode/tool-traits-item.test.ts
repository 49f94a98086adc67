// The card learns what a tool may change and where it comes from from the host (the tool's traits on the
// protocol's tool-call block), never from the tool's name: an outside tool says "from MCP server X", a tool
// the host no longer knows carries no traits, and the approval request of a `runs` tool carries its command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversationEntry } from '../../../src/app/view-model';
import { defineJsonTool } from '../../../src/agent/tools/json-tool';
import { textOutput } from '../../../src/agent/tools/types';
import { parseHostMessage } from '../../../src/protocol';
import type { SessionEntry } from '../../../src/session/entries';
import { toItem, toUiEvent, type ToolDescriber } from '../../../src/vscode/chat-items';
import { toolTraitsText } from '../../../webview/format';
import { builtin } from '../tools/builtin';

const scribe = defineJsonTool({
  name: 'scribe', description: 'x', inputSchema: { type: 'object' }, effect: { kind: 'runs' },
  origin: { kind: 'mcp', server: 'notes', tool: 'scribe' }, execute: async () => textOutput('ok'),
});
const describe: ToolDescriber = (name) => (name === 'scribe' ? scribe : name === 'bash' || name === 'write' ? builtin(name) : undefined);

function assistant(...names: string[]): SessionEntry {
  return {
    type: 'message', id: 'a1', parentId: null, timestamp: '2025-02-01T09:00:00.000Z',
    message: {
      role: 'assistant', content: names.map((name, i) => ({ type: 'toolCall', id: `c${i}`, name, arguments: {} })),
      api: 'x', provider: 'x', model: 'x', stopReason: 'toolUse', timestamp: 1,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    },
  } as SessionEntry;
}

test('tool-call blocks carry the effect kind and origin of the live tool; an unknown tool carries none', () => {
  const item = toItem(conversationEntry(assistant('scribe', 'bash', 'write', 'gone'), undefined)!, describe);
  assert.ok(item?.kind === 'assistant');
  const traits = item.blocks.map((b) => (b.type === 'toolCall' ? [b.effect, b.origin?.kind] : []));
  assert.deepEqual(traits, [['runs', 'mcp'], ['runs', 'builtin'], ['writesFiles', 'builtin'], [undefined, undefined]]);
  assert.ok(parseHostMessage({ type: 'conversation', leafId: 'a1', items: [item], hasEarlier: false }).ok, 'the webview accepts it');
  const texts = item.blocks.map((b) => (b.type === 'toolCall' ? toolTraitsText(b) : ''));
  assert.deepEqual(texts, ['may change anything · from MCP server notes', 'runs a command', 'writes files', '']);
  assert.equal(toolTraitsText({ effect: 'readOnly', origin: { kind: 'builtin' } }), '', 'a built-in reader says nothing');
  assert.equal(toolTraitsText({ effect: 'readOnly', origin: { kind: 'vscode', tool: 'x' } }), 'reads only · from VS Code');
});

test('the approval request of a tool that runs carries its command, validated, never cut', () => {
  const event = toUiEvent({ type: 'approval_request', request: { toolCallId: 'c1', toolName: 'bash', args: { command: 'ls' }, command: 'ls -la' } });
  assert.ok(event?.type === 'approval_request');
  assert.equal(event.command, 'ls -la');
  assert.ok(parseHostMessage({ type: 'agentEvent', event }).ok);
});
