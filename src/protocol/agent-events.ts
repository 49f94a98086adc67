// Streaming agent events as the webview receives them (a UI projection of src/agent/events.ts): deltas,
// tool progress, approvals, compaction. Part of the one protocol that messages.ts exports.
import { z } from 'zod';
import { compactionReasonSchema, contentSchema, countSchema, errorActionsSchema, idSchema, LIMITS, mediumSchema, noticeLevelSchema, shortSchema, toolArgsSchema } from './protocol-primitives';
import { usageSchema } from './chat-state';
import { conversationItemSchema, toolCallBlockSchema } from './conversation-items';

export const messageDeltaSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), contentIndex: z.number().int().min(0).max(LIMITS.blocks), delta: z.string().max(LIMITS.delta) }),
  z.strictObject({ kind: z.literal('thinking'), contentIndex: z.number().int().min(0).max(LIMITS.blocks), delta: z.string().max(LIMITS.delta) }),
  z.strictObject({ kind: z.literal('toolcall_start'), contentIndex: z.number().int().min(0).max(LIMITS.blocks), id: idSchema, name: shortSchema }),
  /** raw JSON of the arguments as it streams */
  z.strictObject({ kind: z.literal('toolcall'), contentIndex: z.number().int().min(0).max(LIMITS.blocks), delta: z.string().max(LIMITS.delta) }),
  z.strictObject({ kind: z.literal('toolcall_end'), contentIndex: z.number().int().min(0).max(LIMITS.blocks), toolCall: toolCallBlockSchema }),
]);
export type MessageDelta = z.infer<typeof messageDeltaSchema>;

/** why an approval asks whatever the settings say; shown as a warning banner on the card */
export const approvalWarningSchema = z.strictObject({ kind: z.enum(['protectedPath', 'hardLink', 'commandMention']), message: mediumSchema });
export type ApprovalWarningView = z.infer<typeof approvalWarningSchema>;

/** write/edit: the compact unified diff shown inline on the approval card (full diff: openDiff) */
export const approvalDiffSchema = z.strictObject({
  lines: z.array(z.strictObject({ kind: z.enum([' ', '-', '+', '@']), text: z.string().max(4000) })).max(LIMITS.page),
  omittedLines: countSchema,
  added: countSchema,
  removed: countSchema,
  isNewFile: z.boolean(),
});
export type ApprovalDiffView = z.infer<typeof approvalDiffSchema>;

export const agentEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('busy') }),
  z.strictObject({ type: z.literal('idle') }),
  /** an assistant reply begins streaming (other roles arrive complete in message_end) */
  z.strictObject({ type: z.literal('message_start'), role: z.enum(['user', 'assistant', 'toolResult', 'custom', 'bashExecution']) }),
  z.strictObject({ type: z.literal('message_delta'), delta: messageDeltaSchema }),
  /** a message was persisted: the final item replaces the streamed draft */
  z.strictObject({ type: z.literal('message_end'), item: conversationItemSchema }),
  z.strictObject({ type: z.literal('tool_start'), toolCallId: idSchema, toolName: shortSchema, args: toolArgsSchema }),
  /** output so far (replaces earlier updates) */
  z.strictObject({ type: z.literal('tool_update'), toolCallId: idSchema, partialText: contentSchema }),
  z.strictObject({
    type: z.literal('tool_end'),
    toolCallId: idSchema,
    toolName: shortSchema,
    status: z.enum(['done', 'error', 'denied', 'aborted', 'skipped']),
    resultText: contentSchema,
    entryId: idSchema,
  }),
  z.strictObject({
    type: z.literal('approval_request'),
    toolCallId: idSchema,
    toolName: shortSchema,
    args: toolArgsSchema,
    /** a file-writing tool with a preview: a diff can be reviewed (openDiff) */
    canDiff: z.boolean(),
    /** a tool whose effect is `runs` and that says what it runs: the whole command, shown on the card */
    command: contentSchema.optional(),
    warnings: z.array(approvalWarningSchema).max(10).optional(),
    diff: approvalDiffSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('approval_resolved'),
    toolCallId: idSchema,
    approved: z.boolean(),
    always: z.boolean().optional(),
    reason: mediumSchema.optional(),
  }),
  z.strictObject({ type: z.literal('usage'), usage: usageSchema }),
  z.strictObject({ type: z.literal('error'), message: mediumSchema, kind: shortSchema.optional(), actions: errorActionsSchema.optional() }),
  z.strictObject({
    type: z.literal('retry'),
    attempt: z.number().int().min(0).max(1000),
    maxAttempts: z.number().int().min(0).max(1000),
    delayMs: z.number().int().min(0).max(86_400_000),
    errorMessage: mediumSchema,
  }),
  z.strictObject({ type: z.literal('queued'), messages: z.array(z.string().max(LIMITS.prompt)).max(LIMITS.list) }),
  z.strictObject({ type: z.literal('compaction_start'), reason: compactionReasonSchema, action: z.enum(['context-full', 'handoff']) }),
  z.strictObject({
    type: z.literal('compaction_end'),
    reason: compactionReasonSchema,
    ok: z.boolean(),
    aborted: z.boolean(),
    willRetry: z.boolean(),
    errorMessage: mediumSchema.optional(),
  }),
  z.strictObject({ type: z.literal('notice'), level: noticeLevelSchema, message: mediumSchema }),
  /** the reply stopped at the output limit: the webview offers Continue (continueReply) */
  z.strictObject({ type: z.literal('cut_off'), entryId: idSchema }),
]);
export type AgentUiEvent = z.infer<typeof agentEventSchema>;
