// Tools that Arbor did not write (MCP servers, VS Code's language-model tools) describe their arguments
// with a JSON Schema, not zod. defineJsonTool wraps such a schema in a validator so `runTool` checks
// their arguments like a built-in tool's and tells the model what was wrong. A schema the validator
// cannot compile is not trusted to reject anything: arguments must then only be a JSON object.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
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

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });

export function defineJsonTool(spec: JsonToolSpec): AgentTool<Args> {
  const parameters = objectSchema(spec.inputSchema);
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    argsSchema: validatorOf(parameters),
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

function validatorOf(schema: Record<string, unknown>): z.ZodType<Args> {
  const validate = compile(schema);
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (!validate || validate(value)) return;
    for (const error of validate.errors ?? []) ctx.addIssue({ code: 'custom', message: messageOf(error), path: pathOf(error) });
  });
}

function compile(schema: Record<string, unknown>): ValidateFunction | undefined {
  try {
    return ajv.compile(schema);
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
