// The chat does not reach the app through a command module (docs/architecture.md, "Adding things"): the chat's
// files (the controller, its requests, its two containers, its items) import no file of src/vscode/commands/,
// so a command can change without the chat, and what both need lives beside them (e.g. model-selection.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importEdges } from './import-graph';

const root = join(__dirname, '..', '..', '..');
const CHAT = /^src\/vscode\/(chat-[a-z-]+|checkpoints\/chat-[a-z-]+)\.ts$/;

test('no chat module imports a command module', () => {
  const edges = importEdges(root);
  const chatFiles = new Set(edges.map((e) => e.from).filter((f) => CHAT.test(f)));
  assert.ok(chatFiles.has('src/vscode/chat-requests.ts') && chatFiles.has('src/vscode/chat-controller.ts'), 'the scan found the chat');
  const intoCommands = edges.filter((e) => CHAT.test(e.from) && e.to.startsWith('src/vscode/commands/'));
  assert.deepEqual(intoCommands.map((e) => `${e.from} -> ${e.to}`), []);
});
