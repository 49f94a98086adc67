// Independent attack run on the user's own skill folders (docs/reliability.md, threat model row "user's
// own skill folders …": "`read` accepts an absolute path only inside the real folder of a user skill the
// latest scan listed, confined to it as the workspace is … and no other tool reaches those folders").
// The model tries spellings that leave the skill's folder: `..`, a sibling whose name starts with the
// skill's, a skill the scan refused, one a workspace skill shadows, a link inside the folder.
// A passing test means the attack failed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectInstructions } from '../../../src/agent/instructions/project-instructions';
import { createToolsWithSkills } from '../../../src/agent/instructions/skill-tool';
import { runTool, workspaceFromPaths } from '../../../src/agent/tools/index';

const SECRET = 'HOME-SECRET-5d1e';
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

test("read reaches only listed user skills' own folders, in no spelling beyond them", async () => {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'arbor-indep-userread-')));
  dirs.push(base);
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  const skills = join(home, '.agents', 'skills');
  await mkdir(join(ws, '.agents', 'skills', 'shadowed'), { recursive: true });
  await writeFile(join(ws, '.agents', 'skills', 'shadowed', 'SKILL.md'), '---\nname: shadowed\ndescription: the repo one\n---\nx\n');
  for (const name of ['notes', 'notesx', 'broken', 'shadowed']) await mkdir(join(skills, name), { recursive: true });
  await writeFile(join(skills, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Notes.\n---\nx\n');
  await writeFile(join(skills, 'notes', 'ok.md'), 'fine\n');
  await writeFile(join(skills, 'notesx', 'secret.md'), SECRET);
  await writeFile(join(skills, 'broken', 'SKILL.md'), 'no front matter\n');
  await writeFile(join(skills, 'broken', 'secret.md'), SECRET);
  await writeFile(join(skills, 'shadowed', 'SKILL.md'), '---\nname: shadowed\ndescription: the user one\n---\nx\n');
  await writeFile(join(skills, 'shadowed', 'secret.md'), SECRET);
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), SECRET);
  await symlink(join(home, '.ssh', 'id_rsa'), join(skills, 'notes', 'key.md'));
  await symlink(join(home, '.ssh'), join(skills, 'notes', 'ssh'));
  const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home });
  const snapshot = await instructions.refresh();
  assert.ok(snapshot.skills.some((s) => s.name === 'notes' && s.scope === 'user'));
  const read = createToolsWithSkills(instructions).find((t) => t.name === 'read')!;
  const ctx = { workspace: workspaceFromPaths([ws]), signal: new AbortController().signal };
  const ok = await runTool(read, { path: join(skills, 'notes', 'ok.md') }, ctx);
  assert.equal(ok.isError, false, 'control: a listed user skill\'s file is readable');
  for (const path of [
    join(skills, 'notes', '..', 'notesx', 'secret.md'),
    `${join(skills, 'notes')}/../../../.ssh/id_rsa`,
    join(skills, 'notesx', 'secret.md'),
    join(skills, 'broken', 'secret.md'),
    join(skills, 'shadowed', 'secret.md'),
    join(skills, 'notes', 'key.md'),
    join(skills, 'notes', 'ssh', 'id_rsa'),
    join(home, '.ssh', 'id_rsa'),
    `${join(skills, 'notes')}//..//..//..//.ssh/id_rsa`,
  ]) {
    const out = await runTool(read, { path }, ctx);
    const text = out.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.doesNotMatch(text, new RegExp(SECRET), `read ${path}`);
    assert.equal(out.isError, true, `read ${path} refused`);
  }
});
