import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../../../src/agent/tools/index';
import { buildSystemPrompt, describeOs, formatDate, readAgentsMd, summarizeTool } from '../../../src/agent/system-prompt';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const d = await realpath(await mkdtemp(join(tmpdir(), 'arbor-sp-')));
  dirs.push(d);
  return d;
}

const tools = createTools();

test('system prompt names the folders, OS, date, tools and AGENTS.md content', () => {
  const prompt = buildSystemPrompt({
    workspaceFolders: [{ name: 'proj', path: '/home/u/proj' }],
    os: 'Linux 6.1 (linux, x64)',
    date: new Date(2025, 2, 7, 12),
    agentsMd: 'Run `npm test` before committing. {{not_a_placeholder}}',
    restricted: false,
    tools,
  });
  assert.match(prompt, /Workspace folder: \/home\/u\/proj/);
  assert.match(prompt, /Operating system: Linux 6\.1 \(linux, x64\)/);
  assert.match(prompt, /Today's date: 2025-03-07/);
  for (const t of ['read', 'write', 'edit', 'bash', 'ls', 'find', 'grep']) assert.match(prompt, new RegExp(`- \`${t}\`: `));
  assert.match(prompt, /## Project instructions[\s\S]*Run `npm test` before committing\. \{\{not_a_placeholder\}\}/);
  assert.doesNotMatch(prompt, /Restricted mode/i);
  assert.doesNotMatch(prompt.replace('{{not_a_placeholder}}', ''), /\{\{/);
});

test('restricted mode, multi-root and no AGENTS.md', () => {
  const prompt = buildSystemPrompt({
    workspaceFolders: [{ name: 'app', path: '/w/app' }, { name: 'lib', path: '/w/lib' }],
    os: describeOs(),
    date: '2030-01-02',
    restricted: true,
    tools: tools.filter((t) => t.effect.kind === 'readOnly'),
  });
  assert.match(prompt, /## Restricted mode\n\nThis workspace is not trusted/);
  assert.match(prompt, /`app`: \/w\/app\n {2}- `lib`: \/w\/lib/);
  assert.match(prompt, /e\.g\. `lib\/src\/index\.ts`/);
  assert.match(prompt, /Today's date: 2030-01-02/);
  assert.doesNotMatch(prompt, /- `bash`: /);
  assert.doesNotMatch(prompt, /Project instructions/);
});

test('summarizeTool and formatDate', () => {
  assert.equal(summarizeTool('Read a file. More text here.'), 'Read a file.');
  assert.equal(summarizeTool('No period'), 'No period');
  assert.equal(summarizeTool('Use e.g.x here. Then'), 'Use e.g.x here.');
  assert.equal(formatDate(new Date(2024, 0, 5)), '2024-01-05');
});

test('readAgentsMd reads each folder, caps size, and does not follow links outside', async () => {
  const base = await tempDir();
  const a = join(base, 'a');
  const b = join(base, 'b');
  const c = join(base, 'c');
  await mkdir(a);
  await mkdir(b);
  await mkdir(c);
  await writeFile(join(a, 'AGENTS.md'), '\uFEFF# Rules A\nUse tabs.\n');
  await writeFile(join(base, 'outside.md'), 'OUTSIDE SECRET');
  await symlink(join(base, 'outside.md'), join(c, 'AGENTS.md'));
  assert.equal(await readAgentsMd({ folders: [{ name: 'a', path: a }] }), '# Rules A\nUse tabs.');
  assert.equal(await readAgentsMd({ folders: [{ name: 'b', path: b }] }), undefined);
  assert.equal(await readAgentsMd({ folders: [{ name: 'c', path: c }] }), undefined);
  await writeFile(join(b, 'AGENTS.md'), 'B rules');
  const multi = await readAgentsMd({ folders: [{ name: 'a', path: a }, { name: 'b', path: b }] });
  assert.equal(multi, 'From a/AGENTS.md:\n\n# Rules A\nUse tabs.\n\nFrom b/AGENTS.md:\n\nB rules');
  await writeFile(join(b, 'AGENTS.md'), 'x'.repeat(100_000));
  const capped = await readAgentsMd({ folders: [{ name: 'b', path: b }] }, 1024);
  assert.ok(capped);
  assert.match(capped, /^x{1024}\n\n\[AGENTS\.md cut: only the first 1 KB are included\.\]$/);
});
