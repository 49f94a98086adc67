// The argument check of an outside tool's JSON Schema leaves regular expressions out (src/agent/tools/json-tool.ts):
// a catastrophic `pattern` cannot freeze the extension host, while the rest of the schema still decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineJsonTool, withoutRegexes } from '../../../src/agent/tools/json-tool';

const tool = (inputSchema: Record<string, unknown>) => defineJsonTool({
  name: 't', description: '', inputSchema, effect: { kind: 'runs' }, origin: { kind: 'mcp', server: 's', tool: 't' },
  execute: async () => ({ content: [], isError: false }),
});

test('pattern, patternProperties and format are removed at every depth; properties named like them and data are kept', () => {
  const schema = {
    type: 'object',
    properties: {
      pattern: { type: 'string', pattern: '^(a|a)+$' },
      format: { type: 'string', format: 'uri' },
      list: { type: 'array', items: { anyOf: [{ type: 'string', pattern: 'x+' }] } },
    },
    patternProperties: { '^(a+)+$': { type: 'number' } },
    additionalProperties: false,
    default: { pattern: 'kept' },
  };
  assert.deepEqual(withoutRegexes(schema), {
    type: 'object',
    properties: { pattern: { type: 'string' }, format: { type: 'string' }, list: { type: 'array', items: { anyOf: [{ type: 'string' }] } } },
    default: { pattern: 'kept' },
  });
});

test('the check still rejects a wrong type and a missing property, answers a catastrophic pattern at once, and the model still sees the pattern', () => {
  const t = tool({ type: 'object', properties: { q: { type: 'string', pattern: '^(a|a)+$' } }, required: ['q'] });
  assert.equal(t.argsSchema.safeParse({ q: 'a'.repeat(40) + '!' }).success, true);
  assert.equal(t.argsSchema.safeParse({ q: 5 }).success, false);
  assert.equal(t.argsSchema.safeParse({}).success, false);
  assert.equal((t.parameters as { properties: { q: { pattern: string } } }).properties.q.pattern, '^(a|a)+$');
});
