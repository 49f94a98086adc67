// Waits for an MCP server to leave "starting" (the unit tests and the hardening attacks start real ones).
import type { McpServers, ServerStatus } from '../../../src/mcp/servers';

export async function settled(mcp: McpServers, name: string): Promise<ServerStatus> {
  for (let i = 0; i < 600; i++) {
    const status = mcp.get(name);
    if (status && status.state !== 'starting') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not settle`);
}
