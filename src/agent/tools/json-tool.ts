// Tools that Arbor did not write (MCP servers, VS Code's language-model tools) describe their arguments
// with a JSON Schema, not zod. defineJsonTool wraps such a schema in a validator so `runTool` checks
// their arguments like a built-in tool's and tells the model what was wrong. A schema the validator
// cannot compile is not trusted to reject anything: arguments must then only be a JSON object.
// The schema is outside input and the check runs in the extension host: regular expressions in it
// (`pattern`, `patternProperties`) and `format` are left out of the check, so a catastrophic pattern
// cannot freeze every chat (docs/reliability.md, "MCP server (descriptions: prompt injection)"); the
// model still sees them, and the server checks its own arguments.
import type { default as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import { z } from 'zod';
import type { AgentTool, ToolContext, ToolEffect, ToolOrigin, ToolOutput } from './types';

export interface JsonToolSpec {
  name: string;
  description: string;
  /** the tool's JSON Schema for its arguments (an object schema) */
  inputSchema: Record<string, unknown>;
  effect: ToolEffect;
  origin: ToolOrigin;
  keepOutput?: boolean;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
}

type Args = Record<string, unknown>;

/** The longest description an outside tool keeps (the rest is its author's text the model need not read). */
export const MAX_OUTSIDE_DESCRIPTION = 2000;

/** Every character a provider refuses in a tool name ([A-Za-z0-9_-]) made `_`; callers cut to 64. */
export function toolNameChars(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

let ajv: AjvClass | undefined;

/**
 * The validator, made when the first outside tool's schema is compiled: ajv is built into dist/vendor/ajv.js
 * (scripts/build.mjs), so activation does not load it (the bundle-size bench counts what activation loads).
 * Logger off: a server's schema with a format ajv does not know ("uri") is accepted without a console line per tool.
 */
function validator(): AjvClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('ajv') as typeof AjvClass | { default: typeof AjvClass };
  const Ajv = 'default' in loaded ? loaded.default : loaded; // the vendor file is the module, ajv itself is the class
  ajv ??= new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  return ajv;
}

export function defineJsonTool(spec: JsonToolSpec): AgentTool<Args> {
  const parameters = objectSchema(spec.inputSchema);
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    argsSchema: validatorOf(withoutRegexes(parameters) as Record<string, unknown>),
    effect: spec.effect,
    origin: spec.origin,
    ...(spec.keepOutput ? { keepOutput: true } : {}),
    execute: spec.execute,
  };
}

/** Providers want an object schema at the top; anything else is replaced by an open object. */
function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...schema };
  delete copy.$schema;
  if (copy.type !== 'object') return { type: 'object', properties: {} };
  return copy;
}

const REGEX_KEYS = new Set(['pattern', 'patternProperties', 'format']);
/** keywords whose value maps names (not keywords) to schemas */
const NAMED_SCHEMAS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);
/** keywords whose value is data, never a schema */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);

/** A copy of the schema without its regular expressions, at every depth; deeper than 64 accepts anything. */
export function withoutRegexes(schema: unknown, depth = 0): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (depth > 64) return {};
  if (Array.isArray(schema)) return schema.map((item) => withoutRegexes(item, depth + 1));
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (REGEX_KEYS.has(key)) continue;
    if (key === 'additionalProperties' && 'patternProperties' in node) continue; // names it matched would now fail
    out[key] = DATA_KEYS.has(key) ? value : NAMED_SCHEMAS.has(key) ? namedSchemas(value, depth + 1) : withoutRegexes(value, depth + 1);
  }
  return out;
}

function namedSchemas(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withoutRegexes(schema, depth)]));
}

function validatorOf(schema: Record<string, unknown>): z.ZodType<Args> {
  const validate = compile(schema);
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (!validate || validate(value)) return;
    for (const error of validate.errors ?? []) ctx.addIssue({ code: 'custom', message: messageOf(error), path: pathOf(error) });
  });
}

function compile(schema: Record<string, unknown>): ValidateFunction | undefined {
  try {
    return validator().compile(schema);
  } catch {
    return undefined;
  }
}

function pathOf(error: ErrorObject): string[] {
  return error.instancePath.split('/').filter((part) => part !== '');
}

function messageOf(error: ErrorObject): string {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  return missing ? `missing required property "${missing}"` : (error.message ?? 'invalid value');
}
