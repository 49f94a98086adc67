// What runs a server (the connection on the MCP SDK, its tools with their JSON Schema validator, its
// results) in one module that scripts/build.mjs builds into a file of its own (dist/vendor/mcp-runtime.js):
// loaded when the first server starts, never at activation. Import it only through `await import('./runtime')`
// (servers.ts).
export { McpConnection } from './connection';
export { toolsOf } from './tools';
