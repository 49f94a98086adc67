// Agent Skills through the agent in the real extension host (fake provider): a skill written into the
// workspace's .agents/skills while the host runs is listed in the next request's system prompt, the
// `skill` tool is offered, and the model's call loads its body and lists its other files; a nested
// AGENTS.md reaches the model with the first read under its folder.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateArbor, fakeAdmin } from './helpers';

interface FakeRequest {
  body?: { messages?: { role: string; content?: unknown }[]; tools?: { function?: { name: string } }[] };
}

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

async function chatRequests(): Promise<FakeRequest[]> {
  return ((await fakeAdmin('requests')) as FakeRequest[]).filter((r) => Array.isArray(r.body?.messages));
}

suite('Agent Skills (extension host, fake provider)', () => {
  const root = workspaceRoot();
  const skillDir = join(root, '.agents', 'skills', 'release-notes');
  const nestedDir = join(root, 'arbor-nested-test');
  setup(async () => {
    await fakeAdmin('reset', {});
  });
  suiteTeardown(async () => {
    await rm(join(root, '.agents'), { recursive: true, force: true });
    await rm(nestedDir, { recursive: true, force: true });
  });

  test('a workspace skill added while the host runs is listed to the model and loaded by the skill tool', async () => {
    const api = await activateArbor();
    await api.app.session.newSession();
    await mkdir(join(skillDir, 'templates'), { recursive: true });
    await writeFile(join(skillDir, 'SKILL.md'), '---\nname: release-notes\ndescription: Writes release notes from the git log. Use when the user asks for release notes.\n---\n# Release notes\n\nGroup the changes by Added, Changed and Fixed. Start from templates/notes.md.\n');
    await writeFile(join(skillDir, 'templates', 'notes.md'), '## Added\n');
    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_skill', name: 'skill', input: { name: 'release-notes' } }] },
      { text: 'Following the release-notes skill.' },
    ]);
    const outcome = await api.app.prompt('Write the release notes');
    assert.equal(outcome.kind, 'sent');
    const requests = await chatRequests();
    const first = requests[0]!;
    const system = JSON.stringify(first.body!.messages!.filter((m) => m.role === 'system' || m.role === 'developer'));
    assert.match(system, /## Skills/);
    assert.match(system, /`release-notes`: Writes release notes from the git log/);
    assert.ok(first.body!.tools!.some((t) => t.function?.name === 'skill'), 'the skill tool is offered');
    const result = api.app.snapshot().conversation.find((e) => e.kind === 'toolResult');
    assert.equal(result?.toolName, 'skill');
    assert.match(result!.text, /Group the changes by Added, Changed and Fixed/);
    assert.match(result!.text, /\.agents\/skills\/release-notes\/templates\/notes\.md/);
    assert.match(JSON.stringify(requests[1]!.body!.messages!.at(-1)), /Group the changes by Added/);
  });

  test('a nested AGENTS.md reaches the model with the first read under its folder', async () => {
    const api = await activateArbor();
    await api.app.session.newSession();
    await mkdir(join(nestedDir, 'lib'), { recursive: true });
    await writeFile(join(nestedDir, 'AGENTS.md'), 'NESTED RULE: keep functions under ten lines.\n');
    await writeFile(join(nestedDir, 'lib', 'a.ts'), 'export const a = 1;\n');
    await fakeAdmin('enqueue', [
      { toolCalls: [{ id: 'call_read', name: 'read', input: { path: 'arbor-nested-test/lib/a.ts' } }] },
      { text: 'Read it.' },
    ]);
    await api.app.prompt('Read arbor-nested-test/lib/a.ts');
    const requests = await chatRequests();
    assert.match(JSON.stringify(requests[1]!.body!.messages!.at(-1)), /NESTED RULE: keep functions under ten lines/);
    assert.deepEqual(api.app.session.nestedInstructionFiles(), ['arbor-nested-test/AGENTS.md']);
  });
});
