// Nested AGENTS.md: a real AgentSession (fake LLM over the OpenAI wire) reads and edits files under a
// folder with its own AGENTS.md; its text reaches the model once, in the first tool result under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nestedFolders } from '../../../src/agent/instructions/agents-files';
import { instructionFilesIn } from '../../../src/agent/instructions/nested-instructions';
import { harness } from './session-helpers';

function toolResults(h: Awaited<ReturnType<typeof harness>>): { toolName: string; text: string; details: unknown }[] {
  return h.store.buildContext().messages
    .filter((m) => m.role === 'toolResult')
    .map((m) => ({ toolName: (m as { toolName: string }).toolName, text: (m as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join(''), details: (m as { details?: unknown }).details }));
}

test('a nested AGENTS.md is added to the first result under its folder, once per branch; the root one is not', async () => {
  const h = await harness({
    files: {
      'AGENTS.md': 'ROOT RULES',
      'src/api/AGENTS.md': 'API RULES: every handler validates its input with zod.',
      'src/api/v1/users.ts': 'export const users = [];\n',
      'src/api/v1/orders.ts': 'export const orders = [];\n',
      'src/web/CLAUDE.md': 'WEB RULES from CLAUDE.md',
      'src/web/app.ts': 'app\n',
      'lib/util.ts': 'util\n',
    },
  });
  h.fake.enqueue(
    { toolCalls: [{ id: 'c1', name: 'read', input: { path: 'lib/util.ts' } }] },
    { toolCalls: [{ id: 'c2', name: 'read', input: { path: 'src/api/v1/users.ts' } }] },
    { toolCalls: [{ id: 'c3', name: 'edit', input: { path: 'src/api/v1/orders.ts', oldText: 'orders = []', newText: 'orders = [1]' } }] },
    { toolCalls: [{ id: 'c4', name: 'read', input: { path: 'src/web/app.ts' } }] },
    { text: 'Done.' },
  );
  await h.agent.prompt('Look at the API');
  const results = toolResults(h);
  assert.deepEqual(results.map((r) => r.toolName), ['read', 'read', 'edit', 'read']);
  assert.doesNotMatch(results[0]!.text, /RULES/, 'no nested file above lib/util.ts; the root file is the system prompt\'s');
  assert.match(results[1]!.text, /\[Instructions from src\/api\/AGENTS\.md: they apply to the files under src\/api\/[^\]]*\]\n\nAPI RULES: every handler validates/);
  assert.deepEqual((results[1]!.details as { instructionFiles: string[] }).instructionFiles, ['src/api/AGENTS.md']);
  assert.doesNotMatch(results[2]!.text, /API RULES/, 'added once: the edit under the same folder does not repeat it');
  assert.match(results[3]!.text, /Instructions from src\/web\/CLAUDE\.md[^\]]*\]\n\nWEB RULES/);
  // the model saw it in the request after the read
  const requests = h.llmRequests();
  assert.match(JSON.stringify(requests[2]!.body.messages.at(-1)), /API RULES/);
  assert.deepEqual([...instructionFilesIn(h.store.buildContext().messages)].sort(), ['src/api/AGENTS.md', 'src/web/CLAUDE.md']);
});

test('a nested AGENTS.md that links out of the workspace is not read', async () => {
  const h = await harness({ files: { 'pkg/a.ts': 'a\n' } });
  await mkdir(join(h.ws, '..', 'elsewhere'), { recursive: true });
  await writeFile(join(h.ws, '..', 'elsewhere', 'AGENTS.md'), 'OUTSIDE RULES');
  await symlink(join(h.ws, '..', 'elsewhere', 'AGENTS.md'), join(h.ws, 'pkg', 'AGENTS.md'));
  h.fake.enqueue({ toolCalls: [{ id: 'c1', name: 'read', input: { path: 'pkg/a.ts' } }] }, { text: 'ok' });
  await h.agent.prompt('read');
  assert.doesNotMatch(toolResults(h)[0]!.text, /OUTSIDE RULES/);
});

test('nestedFolders: from the file\'s folder up to, not including, the root', () => {
  assert.deepEqual(nestedFolders('src/api/v1/users.ts', false), ['src/api/v1', 'src/api', 'src']);
  assert.deepEqual(nestedFolders('src/api', true), ['src/api', 'src']);
  assert.deepEqual(nestedFolders('README.md', false), []);
});
