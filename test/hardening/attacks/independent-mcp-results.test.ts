// Independent attack run on MCP results (docs/reliability.md, threat model row "MCP server (results)":
// a server cannot "exhaust memory or flood the chat: … text is capped at 32 KB per item and 50 KB per
// result, … audio and unknown blocks become a note"). The caps count characters; a result made of
// hundreds of thousands of *empty or unknown* blocks stays under the 16 MB message limit (about 10 MB
// here) yet each block becomes a content part or a details entry, which the chat, the provider request
// and the session file all carry. A passing test means the attack failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolOutputOf } from '../../../src/mcp/results';

const FLOOD = 256 * 1024;

for (const [what, block, N] of [
  ['empty text blocks', { type: 'text', text: '' }, 400_000],
  ['unknown blocks', { type: 'x' }, 400_000],
  ['SVG images', { type: 'image', mimeType: 'image/svg+xml', data: 'AA==' }, 250_000],
] as const) {
  test(`${N.toLocaleString('en')} ${what} (one ${Math.round(JSON.stringify({ content: Array(N).fill(block) }).length / 1e6)} MB message) give a bounded result`, () => {
    const out = toolOutputOf({ content: Array.from({ length: N }, () => ({ ...block })) }, 's', 't');
    const size = JSON.stringify(out).length;
    assert.ok(out.content.length <= 64, `${out.content.length.toLocaleString('en')} content parts`);
    assert.ok(size <= FLOOD, `the tool output (content + details, stored in the session) is ${Math.round(size / 1024)} KB`);
  });
}

test('end to end: a real stdio server returning 300,000 empty text blocks and 200 SVGs (under the 16 MB limit) gives a bounded result', async () => {
  const { join } = await import('node:path');
  const { z } = await import('zod');
  const { ToolRegistry } = await import('../../../src/agent/tools/tool-registry');
  const { defineTool, runTool, textOutput } = await import('../../../src/agent/tools/types');
  const { parseServers } = await import('../../../src/mcp/config');
  const { McpServers } = await import('../../../src/mcp/servers');
  const sdk = (p: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${p}`));
  const code = `
    const { Server } = require(${sdk('server/index.js')});
    const { StdioServerTransport } = require(${sdk('server/stdio.js')});
    const { ListToolsRequestSchema, CallToolRequestSchema } = require(${sdk('types.js')});
    const s = new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } });
    s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'flood', inputSchema: { type: 'object' } }] }));
    s.setRequestHandler(CallToolRequestSchema, async () => ({ content: [
      ...Array.from({ length: 300000 }, () => ({ type: 'text', text: '' })),
      ...Array.from({ length: 200 }, () => ({ type: 'image', mimeType: 'image/svg+xml', data: 'AA==' })) ] }));
    s.connect(new StdioServerTransport());`;
  const root = join(__dirname, '..', '..', '..');
  const registry = new ToolRegistry([defineTool({ name: 'bash', description: '', argsSchema: z.object({}), effect: { kind: 'runs' }, execute: async () => textOutput('') })]);
  const mcp = new McpServers({ tools: registry, placeholders: { env: () => undefined, workspaceFolder: () => root, input: async () => undefined }, log: () => undefined });
  const parsed = parseServers({ f: { command: process.execPath, args: ['-e', code] } });
  mcp.configure(new Map([...parsed.servers].map(([n, config]) => [n, { config, source: 'user' as const }])));
  try {
    for (let i = 0; i < 600 && mcp.get('f')?.state !== 'running'; i++) await new Promise((r) => setTimeout(r, 50));
    const out = await runTool(registry.get('f_flood')!, {}, { workspace: { folders: [{ name: 'w', path: root }] }, signal: new AbortController().signal });
    assert.equal(out.isError, false, JSON.stringify(out.content[0]).slice(0, 300));
    assert.ok(out.content.length <= 64, `${out.content.length.toLocaleString('en')} content parts from one call`);
  } finally {
    await mcp.dispose();
  }
});
