// A built-in tool by name, for tests that drive a consumer (approval, checkpoints, sensitive paths) with
// the tool itself, as the agent loop does: consumers read the tool's effect, never its name.
import { createTools, type BuiltinToolName } from '../../../src/agent/tools/index';
import type { AgentTool } from '../../../src/agent/tools/types';

const tools = new Map<string, AgentTool>();

export function builtin(name: BuiltinToolName): AgentTool {
  let tool = tools.get(name);
  if (!tool) {
    tool = createTools({ ripgrep: false, only: [name] })[0]!;
    tools.set(name, tool);
  }
  return tool;
}
