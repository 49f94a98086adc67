// Independent attack run on Agent Skills and nested AGENTS.md (docs/reliability.md, threat model row
// "repository (workspace skills, nested AGENTS.md/CLAUDE.md)": a repository cannot "flood the context
// (SKILL.md over 256 KB refused; a description cut at 1,024 characters; instruction files 32 KB)" nor
// "reach outside the workspace through a skill (… a symbolic link out of the workspace, for a skill
// folder, a SKILL.md or an AGENTS.md, is refused and reported)". A passing test means the attack failed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectInstructions } from '../../../src/agent/instructions/project-instructions';
import { NestedInstructions } from '../../../src/agent/instructions/nested-instructions';
import { createToolsWithSkills } from '../../../src/agent/instructions/skill-tool';
import { buildSystemPrompt } from '../../../src/agent/system-prompt';
import { createTools, runTool, workspaceFromPaths } from '../../../src/agent/tools/index';

const SECRET = 'OUTSIDE-SECRET-91c2';
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function base(): Promise<{ ws: string; outside: string; home: string }> {
  const b = await realpath(await mkdtemp(join(tmpdir(), 'arbor-indep-skills-')));
  dirs.push(b);
  const ws = join(b, 'ws');
  const outside = join(b, 'outside');
  await mkdir(ws, { recursive: true });
  await mkdir(outside, { recursive: true });
  return { ws, outside, home: join(b, 'home') };
}

const skillMd = (name: string, description: string, body = 'Do it.') => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const text = (out: { content: { type: string; text?: string }[] }) => out.content.map((c) => c.text ?? '').join('');
const CAP = 256 * 1024;

test('thousands of workspace skills do not flood the system prompt', async () => {
  const { ws, home } = await base();
  const count = 3000;
  for (let i = 0; i < count; i++) {
    const name = `s${String(i).padStart(4, '0')}`;
    await mkdir(join(ws, '.agents', 'skills', name), { recursive: true });
    await writeFile(join(ws, '.agents', 'skills', name, 'SKILL.md'), skillMd(name, `IMPORTANT ${'z'.repeat(1000)}`));
  }
  const snapshot = await new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home }).refresh();
  const prompt = buildSystemPrompt({ workspaceFolders: [{ name: 'ws', path: ws }], os: 'Linux', date: '2026-11-28', restricted: false, tools: [], skills: snapshot.skills });
  console.log(`# figures independent-skills-flood: ${snapshot.skills.length} skills listed, system prompt ${Math.round(prompt.length / 1024)} KB`);
  assert.ok(prompt.length <= CAP, `a repository's ${count} skills make a ${Math.round(prompt.length / 1024)} KB system prompt (${snapshot.skills.length} listed)`);
});

test('a deep chain of nested AGENTS.md files does not flood one read result', async () => {
  const { ws } = await base();
  const depth = 60;
  let dir = ws;
  for (let i = 0; i < depth; i++) {
    dir = join(dir, `d${i}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'AGENTS.md'), `Level ${i}: ${'y'.repeat(32 * 1024 - 20)}\n`);
  }
  await writeFile(join(dir, 'file.txt'), 'hello\n');
  const workspace = workspaceFromPaths([ws]);
  const read = createTools().find((t) => t.name === 'read')!;
  const rel = join(...Array.from({ length: depth }, (_, i) => `d${i}`), 'file.txt');
  const args = { path: rel };
  const out = await runTool(read, args, { workspace, signal: new AbortController().signal });
  const withNested = await new NestedInstructions(workspace, () => new Set()).addTo(read, args, out);
  const size = text(withNested).length;
  console.log(`# figures independent-skills-flood: one read with ${depth} nested AGENTS.md → ${Math.round(size / 1024)} KB`);
  assert.ok(size <= CAP, `one read of a file returned ${Math.round(size / 1024)} KB of nested instructions`);
});

test('a skills root that is itself a link out of the workspace lists nothing from outside', async () => {
  for (const linked of ['.agents/skills', '.agents', '.claude/skills', '.github']) {
    const { ws, outside, home } = await base();
    await mkdir(join(outside, 'skills', 'thief'), { recursive: true });
    await writeFile(join(outside, 'skills', 'thief', 'SKILL.md'), skillMd('thief', 'stolen', SECRET));
    await mkdir(join(outside, 'agents', 'skills', 'thief'), { recursive: true });
    await writeFile(join(outside, 'agents', 'skills', 'thief', 'SKILL.md'), skillMd('thief', 'stolen', SECRET));
    const target = linked === '.agents' || linked === '.github' ? join(outside, 'agents') : join(outside, 'skills');
    await mkdir(join(ws, linked, '..'), { recursive: true });
    await symlink(target, join(ws, linked));
    const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home });
    const snapshot = await instructions.refresh();
    assert.deepEqual(snapshot.skills.map((s) => s.name), [], `${linked} linked out: no skill listed`);
    const skill = createToolsWithSkills(instructions).find((t) => t.name === 'skill')!;
    const out = await runTool(skill, { name: 'thief' }, { workspace: workspaceFromPaths([ws]), signal: new AbortController().signal });
    assert.doesNotMatch(text(out), new RegExp(SECRET), `${linked} linked out: the skill tool does not read it`);
  }
});

test('a skill folder that is a symbolic link loop, or a link to /etc/passwd as SKILL.md, is a problem and the scan ends', async () => {
  const { ws, home } = await base();
  const root = join(ws, '.agents', 'skills');
  await mkdir(join(root, 'ok'), { recursive: true });
  await writeFile(join(root, 'ok', 'SKILL.md'), skillMd('ok', 'fine'));
  await symlink(join(root, 'loop'), join(root, 'loop'));
  await symlink('b', join(root, 'a'));
  await symlink('a', join(root, 'b'));
  await mkdir(join(root, 'passwd'));
  await symlink('/etc/passwd', join(root, 'passwd', 'SKILL.md'));
  const snapshot = await new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home }).refresh();
  assert.deepEqual(snapshot.skills.map((s) => s.name), ['ok']);
  assert.ok(snapshot.problems.some((p) => p.path.includes('passwd')), JSON.stringify(snapshot.problems));
  assert.doesNotMatch(JSON.stringify(snapshot), /root:x:0:0/);
});
