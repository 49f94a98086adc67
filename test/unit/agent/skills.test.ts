// Agent Skills discovery, the `skill` tool and `read` of a user skill's files, against real SKILL.md
// folders from a public repository (test/fixtures/skills/SOURCES.json) and hostile ones.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ProjectInstructions } from '../../../src/agent/instructions/project-instructions';
import { parseSkillFile, splitFrontMatter } from '../../../src/agent/instructions/skill-file';
import { createToolsWithSkills } from '../../../src/agent/instructions/skill-tool';
import { createTools, runTool, workspaceFromPaths } from '../../../src/agent/tools/index';
import { buildSystemPrompt } from '../../../src/agent/system-prompt';
import { parse as parseYaml } from 'yaml';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'skills');
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const d = await realpath(await mkdtemp(join(tmpdir(), 'arbor-skills-')));
  dirs.push(d);
  return d;
}

/** A workspace holding the real fixture skills, and an empty home folder. */
async function setup(): Promise<{ ws: string; home: string; instructions: ProjectInstructions }> {
  const base = await tempDir();
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  await cp(join(FIXTURES, 'workspace'), ws, { recursive: true });
  await mkdir(home);
  const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home });
  return { ws, home, instructions };
}

function text(output: { content: { type: string; text?: string }[] }): string {
  return output.content.map((c) => c.text ?? '').join('');
}

const ctx = (ws: string) => ({ workspace: workspaceFromPaths([ws]), signal: new AbortController().signal });

test('real skills from the three workspace folders are found, in order, with their descriptions', async () => {
  const { instructions } = await setup();
  const snapshot = await instructions.refresh();
  assert.deepEqual(
    snapshot.skills.map((s) => [s.name, s.display, s.scope]),
    [
      ['mcp-builder', '.agents/skills/mcp-builder/SKILL.md', 'workspace'],
      ['webapp-testing', '.agents/skills/webapp-testing/SKILL.md', 'workspace'],
      ['claude-api', '.claude/skills/claude-api/SKILL.md', 'workspace'],
      ['brand-guidelines', '.github/skills/brand-guidelines/SKILL.md', 'workspace'],
    ],
  );
  const mcp = snapshot.skills[0]!;
  assert.match(mcp.description, /^Guide for creating high-quality MCP \(Model Context Protocol\) servers/);
  // claude-api's `|-` description is 1,068 characters: loaded, cut to the format's 1,024, and said so.
  const api = snapshot.skills[2]!;
  assert.equal(api.description.length, 1024);
  assert.match(api.description, /^Reference for the Claude API/);
  assert.deepEqual(snapshot.problems.map((p) => [p.path, p.severity]), [['.claude/skills/claude-api/SKILL.md', 'warning']]);
  assert.match(snapshot.problems[0]!.message, /1068 characters long; only the first 1024/);
});

test('the system prompt lists skills by name and description', async () => {
  const { instructions } = await setup();
  const snapshot = await instructions.refresh();
  const prompt = buildSystemPrompt({ workspaceFolders: [], os: 'Linux', date: '2026-01-01', restricted: false, tools: [], skills: snapshot.skills });
  assert.match(prompt, /## Skills\n/);
  assert.match(prompt, /- `mcp-builder`: Guide for creating high-quality MCP/);
  assert.match(prompt, /- `brand-guidelines`: Applies Anthropic's official brand colors/);
  assert.doesNotMatch(buildSystemPrompt({ workspaceFolders: [], os: 'L', date: 'd', restricted: false, tools: [] }), /## Skills/);
});

test('the skill tool loads a body and lists the folder\'s other files with paths read opens', async () => {
  const { ws, instructions } = await setup();
  await instructions.refresh();
  const tools = createToolsWithSkills(instructions);
  const skill = tools.find((t) => t.name === 'skill')!;
  assert.equal(skill.effect.kind, 'readOnly');
  assert.equal(skill.keepOutput, true);
  const out = await runTool(skill, { name: 'mcp-builder' }, ctx(ws));
  assert.equal(out.isError, false, text(out));
  const body = text(out);
  assert.match(body, /# MCP Server Development Guide/);
  assert.doesNotMatch(body, /^---\nname:/m, 'front matter is not repeated');
  assert.match(body, /- \.agents\/skills\/mcp-builder\/reference\/mcp_best_practices\.md \(reference\/mcp_best_practices\.md\)/);
  assert.match(body, /- \.agents\/skills\/mcp-builder\/scripts\/requirements\.txt/);
  const read = tools.find((t) => t.name === 'read')!;
  const ref = await runTool(read, { path: '.agents/skills/mcp-builder/reference/mcp_best_practices.md', limit: 3 }, ctx(ws));
  assert.equal(ref.isError, false, text(ref));
  const unknown = await runTool(skill, { name: 'nope' }, ctx(ws));
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /no skill named "nope"\. Available skills: mcp-builder, webapp-testing, claude-api, brand-guidelines/);
});

test('hostile skills are refused with a problem each, never silently: no front matter, path characters, no description, too large, links out', async () => {
  const { ws, home, instructions } = await setup();
  const outside = join(ws, '..', 'outside');
  await mkdir(join(outside, 'evil'), { recursive: true });
  await writeFile(join(outside, 'secret.md'), '---\nname: secret\ndescription: Outside the workspace.\n---\nSECRET BODY\n');
  await writeFile(join(outside, 'evil', 'SKILL.md'), '---\nname: evil\ndescription: A folder linked in from outside.\n---\nEVIL BODY\n');
  const skills = join(ws, '.agents', 'skills');
  for (const name of ['no-front-matter', 'bad-name', 'no-description']) await cp(join(FIXTURES, 'hostile', name), join(skills, name), { recursive: true });
  await mkdir(join(skills, 'huge'));
  await writeFile(join(skills, 'huge', 'SKILL.md'), `---\nname: huge\ndescription: Too big.\n---\n${'x'.repeat(300 * 1024)}`);
  await mkdir(join(skills, 'secret'));
  await symlink(join(outside, 'secret.md'), join(skills, 'secret', 'SKILL.md'));
  await symlink(join(outside, 'evil'), join(skills, 'evil'));
  const snapshot = await instructions.refresh();
  assert.deepEqual(snapshot.skills.map((s) => s.name), ['mcp-builder', 'webapp-testing', 'claude-api', 'brand-guidelines']);
  const errors = Object.fromEntries(snapshot.problems.filter((p) => p.severity === 'error').map((p) => [p.path.split('/').slice(-2, -1)[0], p.message]));
  assert.match(errors['no-front-matter']!, /does not start with YAML front matter/);
  assert.match(errors['bad-name']!, /name "\.\.\/\.\.\/etc\/passwd" may hold only lowercase letters/);
  assert.match(errors['no-description']!, /no `description`/);
  assert.match(errors['huge']!, /300 KB, larger than the 256 KB/);
  assert.match(errors['secret']!, /outside the workspace/);
  assert.match(errors['evil']!, /outside the workspace/);
  assert.equal(Object.keys(errors).length, 6);
  // the problems are logged once each, not at every scan
  const logged: string[] = [];
  const logging = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home, log: (m) => logged.push(m) });
  await logging.refresh();
  await logging.refresh();
  assert.equal(logged.length, 7); // six refusals and the cut description
});

test('user skills: found in ~/.agents/skills and arbor.skills.paths; the workspace wins a name; read opens only their own files', async () => {
  const { ws, home } = await setup();
  await cp(join(FIXTURES, 'hostile', 'dup-user'), join(home, '.agents', 'skills'), { recursive: true });
  const extra = join(home, 'more-skills', 'notes');
  await mkdir(join(extra, 'docs'), { recursive: true });
  await writeFile(join(extra, 'SKILL.md'), '---\nname: notes\ndescription: Keeps notes.\n---\nRead docs/guide.md first.\n');
  await writeFile(join(extra, 'docs', 'guide.md'), 'GUIDE TEXT\n');
  await writeFile(join(home, 'more-skills', 'private.txt'), 'NOT A SKILL FILE\n');
  const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home, userSkillPaths: () => ['~/more-skills'] });
  const snapshot = await instructions.refresh();
  const notes = snapshot.skills.find((s) => s.name === 'notes')!;
  assert.equal(notes.scope, 'user');
  assert.equal(notes.display, '~/more-skills/notes/SKILL.md');
  assert.equal(snapshot.skills.filter((s) => s.name === 'mcp-builder').length, 1);
  assert.equal(snapshot.skills.find((s) => s.name === 'mcp-builder')!.scope, 'workspace');
  const dup = snapshot.problems.find((p) => p.path === '~/.agents/skills/mcp-builder/SKILL.md')!;
  assert.match(dup.message, /also defined in \.agents\/skills\/mcp-builder\/SKILL\.md, which wins \(the workspace wins over the user folders\)/);

  const tools = createToolsWithSkills(instructions);
  const loaded = text(await runTool(tools.find((t) => t.name === 'skill')!, { name: 'notes' }, ctx(ws)));
  assert.ok(loaded.includes(`- ${join(extra, 'docs', 'guide.md')}`), loaded);
  const read = tools.find((t) => t.name === 'read')!;
  const guide = await runTool(read, { path: join(extra, 'docs', 'guide.md') }, ctx(ws));
  assert.equal(guide.isError, false, text(guide));
  assert.match(text(guide), /GUIDE TEXT/);
  const beside = await runTool(read, { path: join(home, 'more-skills', 'private.txt') }, ctx(ws));
  assert.equal(beside.isError, true);
  assert.match(text(beside), /outside the workspace/);
  // a link inside the skill's folder that leads out of it is refused like one out of the workspace
  await symlink(join(home, 'more-skills', 'private.txt'), join(extra, 'docs', 'escape.txt'));
  const escaped = await runTool(read, { path: join(extra, 'docs', 'escape.txt') }, ctx(ws));
  assert.equal(escaped.isError, true);
  assert.doesNotMatch(text(escaped), /NOT A SKILL FILE/);
  // without instructions, read refuses the skill's files too
  const plainRead = createTools().find((t) => t.name === 'read')!;
  assert.equal((await runTool(plainRead, { path: join(extra, 'docs', 'guide.md') }, ctx(ws))).isError, true);
});

test('a skill added, edited or removed while a session runs is in the next scan', async () => {
  const { ws, instructions } = await setup();
  let changes = 0;
  instructions.onDidChange(() => changes++);
  await instructions.refresh();
  const dir = join(ws, '.agents', 'skills', 'release-notes');
  await mkdir(dir);
  await writeFile(join(dir, 'SKILL.md'), '---\nname: release-notes\ndescription: Writes release notes.\n---\nv1\n');
  assert.ok((await instructions.refresh()).skills.some((s) => s.name === 'release-notes'));
  await writeFile(join(dir, 'SKILL.md'), '---\nname: release-notes\ndescription: Writes the release notes, v2.\n---\nv2 body\n');
  const edited = (await instructions.refresh()).skills.find((s) => s.name === 'release-notes')!;
  assert.equal(edited.description, 'Writes the release notes, v2.');
  const out = await runTool(createToolsWithSkills(instructions).find((t) => t.name === 'skill')!, { name: 'release-notes' }, ctx(ws));
  assert.match(text(out), /v2 body/);
  await rm(dir, { recursive: true });
  assert.ok(!(await instructions.refresh()).skills.some((s) => s.name === 'release-notes'));
  assert.equal(changes, 4);
});

test('the skill tool caches a SKILL.md by path, size and modification time (a read of an unchanged file is no new read)', async () => {
  const { ws, instructions } = await setup();
  const dir = join(ws, '.agents', 'skills', 'cached');
  await mkdir(dir);
  const file = join(dir, 'SKILL.md');
  const at = new Date('2024-01-02T03:04:05Z');
  const write = async (body: string) => (await writeFile(file, `---\nname: cached\ndescription: Cached skill.\n---\n${body}\n`), await utimes(file, at, at));
  await write('body one');
  await instructions.refresh();
  const skill = createToolsWithSkills(instructions).find((t) => t.name === 'skill')!;
  assert.match(text(await runTool(skill, { name: 'cached' }, ctx(ws))), /body one/);
  await write('body two'); // same size, same time: the cache answers, the file is not read again
  assert.match(text(await runTool(skill, { name: 'cached' }, ctx(ws))), /body one/);
  await write('body three, longer'); // another size: read again
  assert.match(text(await runTool(skill, { name: 'cached' }, ctx(ws))), /body three, longer/);
  await writeFile(file, '---\nname: cached\ndescription: Cached skill.\n---\nbody four, longer\n'); // same size, new time
  assert.match(text(await runTool(skill, { name: 'cached' }, ctx(ws))), /body four, longer/);
  // the folder swapped for a link out of the workspace to a SKILL.md of the same size and time: no cache hit, refused
  const out = join(dirname(ws), 'outside-cached');
  await cp(dir, out, { recursive: true, preserveTimestamps: true });
  await rm(dir, { recursive: true });
  await symlink(out, dir);
  const swapped = await runTool(skill, { name: 'cached' }, ctx(ws));
  assert.equal(swapped.isError, true, text(swapped));
  assert.doesNotMatch(text(swapped), /body four/);
  assert.match(text(swapped), /cannot be loaded/);
});

test('front matter parsing: CRLF, BOM, unterminated, non-mapping, disable-model-invocation', () => {
  assert.deepEqual(splitFrontMatter('\uFEFF---\r\nname: a\r\n---\r\nbody\r\n'), { yaml: 'name: a\n', body: 'body\n' });
  assert.equal(splitFrontMatter('---\nname: a\nbody'), undefined);
  assert.equal(splitFrontMatter('# title\n---\nname: a\n---\n'), undefined);
  const list = parseSkillFile('---\n- a\n- b\n---\n', 'a', parseYaml);
  assert.deepEqual(list, { ok: false, problem: 'its front matter is not a YAML mapping' });
  const bad = parseSkillFile('---\nname: [unclosed\n---\n', 'a', parseYaml);
  assert.equal(bad.ok, false);
  const hidden = parseSkillFile('---\nname: a\ndescription: d\ndisable-model-invocation: true\n---\nB', 'b', parseYaml);
  assert.ok(hidden.ok && hidden.skill.hidden && /differs from its folder "b"/.test(hidden.skill.warnings[0]!));
  const long = parseSkillFile(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\n`, 'a', parseYaml);
  assert.deepEqual(long, { ok: false, problem: 'its name is 65 characters long (at most 64)' });
  for (const name of ['-a', 'a-', 'a--b', 'A', 'a_b', 'a/b', 'a.b']) assert.equal(parseSkillFile(`---\nname: "${name}"\ndescription: d\n---\n`, name, parseYaml).ok, false, name);
});

test('the skill tool runs without asking and stays on in restricted mode, like read (it only reads)', async () => {
  const { ApprovalPolicy } = await import('../../../src/agent/approval');
  const { ws, instructions } = await setup();
  await instructions.refresh();
  const skill = createToolsWithSkills(instructions).find((t) => t.name === 'skill')!;
  const policy = new ApprovalPolicy();
  assert.deepEqual(policy.decide(skill, { trusted: true }), { kind: 'allow' });
  assert.deepEqual(policy.decide(skill, { trusted: false }), { kind: 'allow' });
  assert.deepEqual(policy.decide(skill, { trusted: true, mode: 'plan' }), { kind: 'allow' });
  assert.ok(ws);
});

test('global instruction files: pi\'s ~/.pi/agent/AGENTS.md (else CLAUDE.md) and arbor.instructions.globalFiles, before the root file', async () => {
  const { ws, home } = await setup();
  await writeFile(join(ws, 'AGENTS.md'), 'PROJECT RULES');
  await mkdir(join(home, '.pi', 'agent'), { recursive: true });
  await writeFile(join(home, '.pi', 'agent', 'CLAUDE.md'), 'PI GLOBAL FROM CLAUDE.md');
  await mkdir(join(home, '.codex'));
  await writeFile(join(home, '.codex', 'AGENTS.md'), 'CODEX GLOBAL');
  const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home, globalFiles: () => ['~/.codex/AGENTS.md', '~/missing.md'] });
  const snapshot = await instructions.refresh();
  assert.deepEqual(snapshot.files.map((f) => [f.display, f.scope]), [['~/.pi/agent/CLAUDE.md', 'global'], ['~/.codex/AGENTS.md', 'global'], ['AGENTS.md', 'root']]);
  await writeFile(join(home, '.pi', 'agent', 'AGENTS.md'), 'PI GLOBAL');
  const text = instructions.promptText(await instructions.refresh())!;
  assert.equal(text, 'From ~/.pi/agent/AGENTS.md:\n\nPI GLOBAL\n\nFrom ~/.codex/AGENTS.md:\n\nCODEX GLOBAL\n\nFrom AGENTS.md:\n\nPROJECT RULES');
  // a host without user files (the agent's default) reads the workspace's only
  const workspaceOnly = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home, userFiles: false, skills: false });
  const only = await workspaceOnly.refresh();
  assert.deepEqual(only.files.map((f) => f.display), ['AGENTS.md']);
  assert.equal(only.skills.length, 0);
});
