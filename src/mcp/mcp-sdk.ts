// The parts of the MCP SDK Arbor uses (about 300 KB minified), reached only through `await import('./mcp-sdk')`
// (loadMcpSdk in connection.ts): the client's runtime (runtime.ts, its own file in the build) evaluates it
// when the first server starts.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
