// The one spelling of outside tools' names (MCP servers' and VS Code's tools) and their description cap.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { MAX_OUTSIDE_DESCRIPTION, toolNameChars } from '../../../src/agent/tools/json-tool';
import { toolNameOf } from '../../../src/mcp/tools';
import { adaptLmTool, arborName } from '../../../src/vscode/lm-tool-adapter';

describe('toolNameChars', () => {
  it('keeps what providers accept and makes every other UTF-16 unit an underscore', () => {
    assert.equal(toolNameChars('Az09_-'), 'Az09_-');
    assert.equal(toolNameChars('a b.c/d:é'), 'a_b_c_d__');
    assert.equal(toolNameChars('😀'), '__'); // a surrogate pair is two units
    assert.equal(toolNameChars(''), '');
  });

  it('does not cut: the callers cut to 64 where a name must fit', () => {
    assert.equal(toolNameChars('x'.repeat(80)).length, 80);
    assert.equal(arborName('x'.repeat(80)).length, 64);
  });

  it('MCP tool names start with the prefix the server spelling gives (the user-prefix guard reads it)', () => {
    for (const server of ['git hub', 'ä.b', 'plain']) assert.ok(toolNameOf(server, 'tool').startsWith(`${toolNameChars(server)}_`), server);
  });

  it('a VS Code tool description is cut at the shared cap', () => {
    const tool = adaptLmTool({ name: 't', description: 'd'.repeat(MAX_OUTSIDE_DESCRIPTION + 50), tags: [] }, false, async () => ({ content: [] }));
    assert.equal(tool.description.length, MAX_OUTSIDE_DESCRIPTION);
  });
});
