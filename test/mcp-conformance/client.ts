// The client the MCP conformance suite (`@modelcontextprotocol/conformance client`) runs for each client
// scenario: it connects with Arbor's own MCP client (src/mcp/connection.ts, Streamable HTTP with the SSE
// fallback, exactly as a server from `arbor.mcp.servers` is started) to the URL the suite appends, lists
// the tools and calls each one with arguments made from its schema, the way the agent would call it.
// Exit code 0 when every step worked. Run by test/mcp-conformance/run.mjs.
import { McpConnection, type McpToolInfo } from '../../src/mcp/connection';
import { describeFailure } from '../../src/mcp/failures';
import { toolOutputOf } from '../../src/mcp/results';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(unknown)';

function sampleOf(schema: Record<string, unknown> | undefined, index: number): unknown {
  const type = schema?.type;
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema?.default !== undefined) return schema.default;
  if (type === 'number' || type === 'integer') return index + 2;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'test';
}

function argumentsFor(tool: McpToolInfo): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
  return Object.fromEntries(Object.entries(properties).filter(([name]) => required.has(name)).map(([name, schema], i) => [name, sampleOf(schema, i)]));
}

async function main(): Promise<number> {
  if (!url) return (console.error('usage: client.ts <server-url>'), 2);
  const connection = new McpConnection('conformance', { type: 'http', url }, {
    log: (line) => console.error(`[log] ${line}`),
    toolsChanged: (tools) => console.error(`[tools changed] ${tools.map((t) => t.name).join(', ')}`),
    closed: (failure) => console.error(`[closed] ${describeFailure(failure)}`),
  }, 20_000);
  const started = await connection.start();
  if (!started.ok) return (console.error(`[${scenario}] start failed: ${describeFailure(started.failure)}`), 1);
  console.log(`[${scenario}] connected; tools: ${started.tools.map((t) => t.name).join(', ') || '(none)'}`);
  let failed = 0;
  for (const tool of started.tools) {
    const args = argumentsFor(tool);
    try {
      const result = await connection.callTool(tool.name, args, { signal: new AbortController().signal, timeoutMs: 20_000 });
      const output = toolOutputOf(result, 'conformance', tool.name);
      console.log(`[${scenario}] ${tool.name}(${JSON.stringify(args)}) → ${output.isError ? 'error' : 'ok'}: ${JSON.stringify(output.content).slice(0, 300)}`);
      if (output.isError) failed++;
    } catch (error) {
      failed++;
      console.error(`[${scenario}] ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await connection.close();
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
