// Shapes of the session header, entries and message roles (pi v3). Every object is "loose": unknown
// fields are kept. Two validators agree on one contract (tested against each other):
//  - zod schemas, the readable definition, used for error messages and by other modules;
//  - `entryProblem`, a hand-written check used on the hot load path, so opening a 40 MB file does not
//    pay for a second full copy of every object.
// The contract checks the entry's base, its type-specific top-level fields and, for messages, the role's
// required top-level fields (content must be a string or an array of `{type: string}` blocks).
import { z } from 'zod';
import { KNOWN_ENTRY_TYPES } from './entries';

const block = z.looseObject({ type: z.string() });
const blocks = z.array(block);
const userContent = z.union([z.string(), blocks]);

export const userMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: userContent,
  timestamp: z.number(),
});
export const assistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: blocks,
  provider: z.string(),
  model: z.string(),
  timestamp: z.number(),
});
export const toolResultMessageSchema = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: blocks,
  timestamp: z.number(),
});
export const bashExecutionMessageSchema = z.looseObject({
  role: z.literal('bashExecution'),
  command: z.string(),
  output: z.string(),
  timestamp: z.number(),
});
export const customMessageSchema = z.looseObject({
  role: z.literal('custom'),
  customType: z.string(),
  content: userContent,
  timestamp: z.number(),
});
export const systemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: userContent,
  timestamp: z.number(),
});
/** Roles Arbor understands; other roles (omp's `fileMention`, …) are allowed and kept as-is. */
export const knownMessageSchema = z.discriminatedUnion('role', [
  userMessageSchema,
  assistantMessageSchema,
  toolResultMessageSchema,
  bashExecutionMessageSchema,
  customMessageSchema,
  systemMessageSchema,
]);
export const KNOWN_MESSAGE_ROLES = ['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'system'] as const;
export const messageSchema = z.looseObject({ role: z.string() }).superRefine((value, ctx) => {
  if (!(KNOWN_MESSAGE_ROLES as readonly string[]).includes(value.role)) return;
  const result = knownMessageSchema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] });
  }
});

export const sessionHeaderSchema = z.looseObject({
  type: z.literal('session'),
  version: z.number().optional(),
  id: z.string(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
});

export const entryBaseSchema = z.looseObject({
  type: z.string(),
  id: z.string().min(1),
  parentId: z.string().nullable(),
  timestamp: z.string(),
});

const base = entryBaseSchema.shape;
export const entrySchemas = {
  message: z.looseObject({ ...base, type: z.literal('message'), message: messageSchema }),
  thinking_level_change: z.looseObject({
    ...base,
    type: z.literal('thinking_level_change'),
    thinkingLevel: z.string().nullable().optional(),
  }),
  model_change: z.union([
    z.looseObject({ ...base, type: z.literal('model_change'), provider: z.string(), modelId: z.string() }),
    z.looseObject({ ...base, type: z.literal('model_change'), model: z.string(), role: z.string().optional() }),
  ]),
  compaction: z.looseObject({
    ...base,
    type: z.literal('compaction'),
    summary: z.string(),
    firstKeptEntryId: z.string(),
    tokensBefore: z.number(),
  }),
  branch_summary: z.looseObject({ ...base, type: z.literal('branch_summary'), fromId: z.string(), summary: z.string() }),
  custom: z.looseObject({ ...base, type: z.literal('custom'), customType: z.string() }),
  custom_message: z.looseObject({
    ...base,
    type: z.literal('custom_message'),
    customType: z.string(),
    content: userContent,
    display: z.boolean(),
  }),
  label: z.looseObject({ ...base, type: z.literal('label'), targetId: z.string(), label: z.string().optional() }),
  session_info: z.looseObject({ ...base, type: z.literal('session_info'), name: z.string().optional() }),
  context_edit: z.looseObject({
    ...base,
    type: z.literal('context_edit'),
    targetId: z.string(),
    replacement: z.looseObject({ content: userContent }).nullable(),
  }),
  usage: z.looseObject({ ...base, type: z.literal('usage'), usage: z.looseObject({}) }),
  reset_boundary: z.looseObject({ ...base, type: z.literal('reset_boundary') }),
} as const satisfies Record<(typeof KNOWN_ENTRY_TYPES)[number], z.ZodType>;

/** Validates any entry: known types strictly, unknown types by their base only. */
export function entrySchemaFor(type: unknown): z.ZodType {
  return typeof type === 'string' && Object.hasOwn(entrySchemas, type)
    ? entrySchemas[type as keyof typeof entrySchemas]
    : entryBaseSchema;
}

/** Readable zod message for an entry that failed the fast check. */
export function describeEntryProblem(value: unknown): string {
  const result = entrySchemaFor((value as { type?: unknown } | null)?.type).safeParse(value);
  if (result.success) return 'invalid entry';
  return result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`)
    .join('; ');
}

// ---------------------------------------------------------------------------------------------------
// Fast path. Returns undefined when valid, else a short reason; must agree with the zod schemas above.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isOptStr = (v: unknown) => v === undefined || typeof v === 'string';
const isNum = (v: unknown) => typeof v === 'number' && !Number.isNaN(v);

function isBlocks(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const b of v) if (!isObj(b) || !isStr(b.type)) return false;
  return true;
}
const isUserContent = (v: unknown) => isStr(v) || isBlocks(v);

function messageProblem(m: unknown): string | undefined {
  if (!isObj(m) || !isStr(m.role)) return 'message.role';
  switch (m.role) {
    case 'user':
      return isUserContent(m.content) && isNum(m.timestamp) ? undefined : 'user message shape';
    case 'assistant':
      return isBlocks(m.content) && isStr(m.provider) && isStr(m.model) && isNum(m.timestamp)
        ? undefined
        : 'assistant message shape';
    case 'toolResult':
      return isStr(m.toolCallId) && isStr(m.toolName) && isBlocks(m.content) && isNum(m.timestamp)
        ? undefined
        : 'toolResult message shape';
    case 'bashExecution':
      return isStr(m.command) && isStr(m.output) && isNum(m.timestamp) ? undefined : 'bashExecution message shape';
    case 'custom':
      return isStr(m.customType) && isUserContent(m.content) && isNum(m.timestamp) ? undefined : 'custom message shape';
    case 'system':
      return isUserContent(m.content) && isNum(m.timestamp) ? undefined : 'system message shape';
    default:
      return undefined;
  }
}

/** True when the value has the base every entry needs to sit in the tree. */
export function hasEntryBase(e: unknown): e is Obj & { type: string; id: string; parentId: string | null; timestamp: string } {
  return (
    isObj(e) &&
    isStr(e.type) &&
    isStr(e.id) &&
    e.id.length > 0 &&
    (e.parentId === null || isStr(e.parentId)) &&
    isStr(e.timestamp)
  );
}

export function entryProblem(e: unknown): string | undefined {
  if (!hasEntryBase(e)) return 'entry base (type, id, parentId, timestamp)';
  switch (e.type) {
    case 'message':
      return messageProblem(e.message);
    case 'thinking_level_change':
      return isOptStr(e.thinkingLevel) || e.thinkingLevel === null ? undefined : 'thinkingLevel';
    case 'model_change':
      return (isStr(e.provider) && isStr(e.modelId)) || (isStr(e.model) && isOptStr(e.role)) ? undefined : 'provider/modelId';
    case 'compaction':
      return isStr(e.summary) && isStr(e.firstKeptEntryId) && isNum(e.tokensBefore) ? undefined : 'compaction fields';
    case 'branch_summary':
      return isStr(e.fromId) && isStr(e.summary) ? undefined : 'branch_summary fields';
    case 'custom':
      return isStr(e.customType) ? undefined : 'customType';
    case 'custom_message':
      return isStr(e.customType) && isUserContent(e.content) && typeof e.display === 'boolean'
        ? undefined
        : 'custom_message fields';
    case 'label':
      return isStr(e.targetId) && isOptStr(e.label) ? undefined : 'label fields';
    case 'session_info':
      return isOptStr(e.name) ? undefined : 'name';
    case 'context_edit':
      return isStr(e.targetId) && (e.replacement === null || (isObj(e.replacement) && isUserContent(e.replacement.content)))
        ? undefined
        : 'context_edit fields';
    case 'usage':
      return isObj(e.usage) ? undefined : 'usage';
    default:
      return undefined;
  }
}

export function headerProblem(h: unknown): string | undefined {
  if (!isObj(h) || h.type !== 'session') return 'first line is not a session header ({"type":"session",…})';
  if (!isStr(h.id)) return 'session header has no string id';
  if (h.version !== undefined && !isNum(h.version)) return 'session header version is not a number';
  return undefined;
}
