// An MCP server's tools as Arbor tools: named `<server>_<tool>` (the registry settles collisions, so a
// server can never shadow `bash`), described with the server's name in front (a description is the
// server's text and may try to instruct the model: the user sees it on the card, and the tool still
// asks), `runs` unless the user said this tool is read-only, and results turned into capped content.
import { errorText } from '../core/error-text';
import { defineJsonTool, MAX_OUTSIDE_DESCRIPTION, toolNameChars } from '../agent/tools/json-tool';
import { ToolError, type AgentTool, type ToolContext, type ToolEffect, type ToolOutput } from '../agent/tools/types';
import type { ServerConfig } from './config';
import type { McpConnection, McpToolInfo } from './connection';

import { toolOutputOf } from './results';

const MAX_SCHEMA_CHARS = 32 * 1024;

/** `<server>_<tool>` with every other character replaced, 1–64 characters. */
export function toolNameOf(server: string, tool: string): string {
  const name = toolNameChars(`${server}_${tool}`).slice(0, 64);
  return name.replace(/_+$/, '') || 'mcp_tool';
}

function descriptionOf(server: string, info: McpToolInfo, schemaDropped: boolean): string {
  const own = (info.description ?? info.annotations?.title ?? info.title ?? '').trim();
  const cut = own.length > MAX_OUTSIDE_DESCRIPTION ? `${own.slice(0, MAX_OUTSIDE_DESCRIPTION)}…` : own;
  const note = schemaDropped ? ' (its argument schema was too large and is not shown)' : '';
  return `[MCP server "${server}", tool "${info.name}"]${note} ${cut}`.trim();
}

function schemaOf(info: McpToolInfo): { schema: Record<string, unknown>; dropped: boolean } {
  const schema = info.inputSchema && typeof info.inputSchema === 'object' ? info.inputSchema : {};
  let size = Infinity;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    // a schema that cannot be serialised is dropped like an oversized one
  }
  return size > MAX_SCHEMA_CHARS ? { schema: { type: 'object', properties: {} }, dropped: true } : { schema, dropped: false };
}

/** Read-only only when the user said so: by name, or by trusting this server's readOnlyHint. */
export function effectOf(server: string, info: McpToolInfo, config: ServerConfig): ToolEffect {
  const userSaysReadOnly = config.readOnlyTools?.includes(info.name) === true;
  const trustedHint = config.trustReadOnlyHints === true && info.annotations?.readOnlyHint === true;
  if (userSaysReadOnly || trustedHint) return { kind: 'readOnly' };
  return { kind: 'runs', command: (args) => callLine(server, info.name, args) };
}

/** What the card and the approval show: the exact call that will be made. */
export function callLine(server: string, tool: string, args: Record<string, unknown>): string {
  return `${server} › ${tool} ${JSON.stringify(args)}`;
}

function progressText(tool: string, progress: number, total: number | undefined, message: string | undefined): string {
  const amount = total ? `${progress}/${total}` : `${progress}`;
  return `${tool}: ${amount}${message ? ` — ${message.slice(0, 500)}` : ''}`;
}

async function runCall(connection: McpConnection, server: string, info: McpToolInfo, timeoutMs: number, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  try {
    const result = await connection.callTool(info.name, args, {
      signal: ctx.signal,
      timeoutMs,
      onProgress: (p, total, message) => ctx.onUpdate?.(progressText(info.name, p, total, message)),
    });
    return toolOutputOf(result, server, info.name);
  } catch (error) {
    if (ctx.signal.aborted) throw new ToolError(`The call to ${server} › ${info.name} was cancelled.`);
    throw new ToolError(`The MCP server "${server}" could not run ${info.name}: ${callError(error, timeoutMs, connection.lastError)}`);
  }
}

function callError(error: unknown, timeoutMs: number, transportError: string | undefined): string {
  const code = (error as { code?: unknown }).code;
  if (code === -32001) return `no answer within ${Math.round(timeoutMs / 1000)} s (request timed out)`;
  if (code === -32000) return `the server closed the connection${transportError ? ` (${transportError})` : ' (it may have crashed)'}`;
  return errorText(error).slice(0, 1000);
}

/** The Arbor tools of one running server (its disabled tools left out). */
export function toolsOf(server: string, config: ServerConfig, connection: McpConnection, listed: readonly McpToolInfo[]): AgentTool[] {
  const disabled = new Set(config.disabledTools ?? []);
  const timeoutMs = (config.toolTimeout ?? 300) * 1000;
  return listed.filter((info) => typeof info?.name === 'string' && info.name !== '' && !disabled.has(info.name)).map((info) => {
    const { schema, dropped } = schemaOf(info);
    return defineJsonTool({
      name: toolNameOf(server, info.name),
      description: descriptionOf(server, info, dropped),
      inputSchema: schema,
      effect: effectOf(server, info, config),
      origin: { kind: 'mcp', server, tool: info.name },
      execute: (args, ctx) => runCall(connection, server, info, timeoutMs, args, ctx),
    });
  });
}
