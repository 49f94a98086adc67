// The `skill` tool's output survives compaction's pruning: the tool declares `keepOutput`, and pruning
// keeps the output of the tools that do. The skill body is the real claude-api SKILL.md (74 KB), loaded
// through the tool from the fixture workspace (test/fixtures/skills/SOURCES.json).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectInstructions } from '../../../src/agent/instructions/project-instructions';
import { createToolsWithSkills } from '../../../src/agent/instructions/skill-tool';
import { runTool, workspaceFromPaths } from '../../../src/agent/tools/index';
import { applyPrunePlan, DEFAULT_PRUNE_CONFIG, planPruning } from '../../../src/compaction/pruning';
import { PathBuilder, chars } from './fixtures';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function loadedSkill(): Promise<{ text: string; keepOutputTools: string[] }> {
  const ws = await realpath(await mkdtemp(join(tmpdir(), 'arbor-prune-skill-')));
  dirs.push(ws);
  await cp(join(__dirname, '..', '..', 'fixtures', 'skills', 'workspace'), ws, { recursive: true });
  const instructions = new ProjectInstructions({ workspace: workspaceFromPaths([ws]), home: ws });
  await instructions.refresh();
  const tools = createToolsWithSkills(instructions);
  const out = await runTool(tools.find((t) => t.name === 'skill')!, { name: 'claude-api' }, { workspace: workspaceFromPaths([ws]), signal: new AbortController().signal });
  assert.equal(out.isError, false);
  return { text: (out.content[0] as { text: string }).text, keepOutputTools: tools.filter((t) => t.keepOutput).map((t) => t.name) };
}

/** An old skill result, then two old bash results as large, then 45k tokens of newer output. */
function session(skillText: string): { b: PathBuilder; skill: string; bash: string[] } {
  const b = new PathBuilder();
  b.user('use the claude-api skill');
  b.assistant('', [b.toolCall('skill', { name: 'claude-api' })]);
  const skill = b.toolResult(skillText, 'skill');
  const bash: string[] = [];
  for (let i = 0; i < 2; i++) {
    b.user('go');
    b.assistant('', [b.toolCall('bash', {})]);
    bash.push(b.toolResult(chars(Math.ceil(skillText.length / 4)), 'bash'));
  }
  b.user('go');
  b.assistant('', [b.toolCall('bash', {})]);
  b.toolResult(chars(45_000), 'bash');
  return { b, skill, bash };
}

test('a loaded skill is kept by pruning while output as large and as old is pruned', async () => {
  const { text, keepOutputTools } = await loadedSkill();
  assert.ok(text.length > 60_000, 'the real skill body is large enough to be worth pruning');
  assert.ok(keepOutputTools.includes('skill'));
  const { b, skill, bash } = session(text);
  for (const config of [DEFAULT_PRUNE_CONFIG, { ...DEFAULT_PRUNE_CONFIG, protectedTools: keepOutputTools }]) {
    const plan = planPruning(b.entries, config);
    assert.equal(plan.prune.has(skill), false, 'the skill output is never pruned');
    assert.deepEqual([...plan.prune.keys()].sort(), [...bash].sort(), 'the bash output as old and as large is');
    const after = applyPrunePlan(b.entries, plan);
    const kept = after[b.index(skill)] as { message: { content: { text: string }[] } };
    assert.equal(kept.message.content[0]!.text, text);
  }
});
