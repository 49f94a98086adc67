// The approval's diff comes from the tool's own `proposed` (its effect), whoever wrote the tool: write's
// content, edit's exact splice (CRLF kept), an outside tool's preview; none for a tool that runs, a
// target outside the workspace, or an edit that would not match exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previewFileChange } from '../../../src/app/approval-preview';
import { defineJsonTool } from '../../../src/agent/tools/json-tool';
import { textOutput } from '../../../src/agent/tools/types';
import { builtin } from '../tools/builtin';

test('previews follow the effect: write, edit (CRLF kept), an outside tool; none where the tool cannot say', async () => {
  const ws = await mkdtemp(join(tmpdir(), 'arbor-preview-'));
  await writeFile(join(ws, 'a.txt'), 'one\r\ntwo\r\n');
  const workspace = { folders: [{ name: 'ws', path: ws }] };
  const write = await previewFileChange(builtin('write'), { path: 'new.txt', content: 'hi' }, workspace);
  assert.deepEqual([write?.proposed, write?.isNewFile, write?.original], ['hi', true, '']);
  const edit = await previewFileChange(builtin('edit'), { path: 'a.txt', oldText: 'two\n', newText: 'deux\n' }, workspace);
  assert.equal(edit?.proposed, 'one\r\ndeux\r\n');
  assert.equal(await previewFileChange(builtin('edit'), { path: 'a.txt', oldText: 'missing', newText: 'x' }, workspace), undefined);
  assert.equal(await previewFileChange(builtin('bash'), { command: 'echo hi > a.txt' }, workspace), undefined);
  assert.equal(await previewFileChange(builtin('write'), { path: '../outside.txt', content: 'x' }, workspace), undefined);
  const upper = defineJsonTool({
    name: 'upper', description: 'x', inputSchema: { type: 'object' }, origin: { kind: 'mcp', server: 's', tool: 'upper' },
    effect: { kind: 'writesFiles', targets: (args) => [String(args.file)], proposed: (_args, original) => original.toUpperCase() },
    execute: async () => textOutput('ok'),
  });
  const outside = await previewFileChange(upper, { file: 'a.txt' }, workspace);
  assert.deepEqual([outside?.path, outside?.proposed], ['a.txt', 'ONE\r\nTWO\r\n']);
});
