// The conversation as the webview shows it: the active path's items (user, assistant, tool results,
// summaries, notices) and their blocks. Part of the one protocol that messages.ts exports.
import { z } from 'zod';
import { userImagesSchema } from './images';
import { compactionReasonSchema, contentSchema, costSchema, countSchema, idSchema, labelSchema, LIMITS, mediumSchema, noticeLevelSchema, shortSchema, timestampSchema, toolArgsSchema, toolStatusSchema } from './protocol-primitives';

const itemBase = {
  /** session entry id (tree node id) */
  entryId: idSchema,
  timestamp: timestampSchema,
  /** label set on this entry (label entries), if any */
  label: labelSchema.optional(),
  /** pinned on the active path: compactions keep the message verbatim (`pin` toggles it) */
  pinned: z.boolean().optional(),
  /** "Summarize from here" can start at this entry (the command's own predicate, src/branch/stage.ts) */
  stageStart: z.boolean().optional(),
};

export const textBlockSchema = z.strictObject({ type: z.literal('text'), text: contentSchema });
export const thinkingBlockSchema = z.strictObject({ type: z.literal('thinking'), thinking: contentSchema });
/** What a tool may change (src/agent/tools/types.ts, ToolEffect): the card says "runs a command" / "writes files". */
export const toolEffectKindSchema = z.enum(['readOnly', 'writesFiles', 'runs']);
export type ToolEffectKind = z.infer<typeof toolEffectKindSchema>;
/** Where a tool comes from: the card names an MCP server or VS Code's tools. */
export const toolOriginSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('builtin') }),
  z.strictObject({ kind: z.literal('mcp'), server: shortSchema, tool: shortSchema }),
  z.strictObject({ kind: z.literal('vscode'), tool: shortSchema }),
]);
export type ToolOriginView = z.infer<typeof toolOriginSchema>;

export const toolCallBlockSchema = z.strictObject({
  type: z.literal('toolCall'),
  id: idSchema,
  name: shortSchema,
  arguments: toolArgsSchema,
  /** the tool's traits, when the host knows the tool (absent: a tool no longer in the list) */
  effect: toolEffectKindSchema.optional(),
  origin: toolOriginSchema.optional(),
});
export const assistantBlockSchema = z.discriminatedUnion('type', [textBlockSchema, thinkingBlockSchema, toolCallBlockSchema]);
export type AssistantBlock = z.infer<typeof assistantBlockSchema>;

export const userItemSchema = z.strictObject({
  kind: z.literal('user'),
  ...itemBase,
  text: contentSchema,
  /** the images the message carried (src/protocol/images.ts) */
  images: userImagesSchema.optional(),
});

export const assistantItemSchema = z.strictObject({
  kind: z.literal('assistant'),
  ...itemBase,
  blocks: z.array(assistantBlockSchema).max(LIMITS.blocks),
  model: shortSchema.optional(),
  provider: shortSchema.optional(),
  stopReason: z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']),
  errorMessage: mediumSchema.optional(),
  tokens: countSchema.optional(),
  cost: costSchema.optional(),
});

export const toolResultItemSchema = z.strictObject({
  kind: z.literal('toolResult'),
  ...itemBase,
  toolCallId: idSchema,
  toolName: shortSchema,
  text: contentSchema,
  isError: z.boolean(),
  /** how the call ended, when the host knows more than isError (denied, aborted, skipped) */
  status: toolStatusSchema.optional(),
  /** the model that got a placeholder instead of the result's image (pi 1.6 `details.imageUnsupportedByModel`) */
  imageNotSentTo: shortSchema.optional(),
  /** the images the result carried (an MCP tool's, a read image) */
  images: userImagesSchema.optional(),
  /** an MCP tool's result: its server and tool, and the resources it named (shown as text, never fetched) */
  mcp: z
    .strictObject({
      server: shortSchema,
      tool: shortSchema,
      links: z.array(z.strictObject({ uri: mediumSchema, name: shortSchema.optional() })).max(50),
    })
    .optional(),
});

/**
 * What a compaction kept from the user (src/compaction/user-words.ts), with its entry: a message kept
 * verbatim (`said`), a pinned one, a ledger line for messages over the budget (`summarized`), or a
 * classifier sentence of a compaction written before (`constraint`, `correction`).
 */
export const keptWordsSchema = z.strictObject({
  entryId: idSchema,
  kind: z.enum(['said', 'summarized', 'constraint', 'correction', 'pinned']),
  text: mediumSchema,
});
export type KeptWords = z.infer<typeof keptWordsSchema>;

export const compactionItemSchema = z.strictObject({
  kind: z.literal('compaction'),
  ...itemBase,
  summary: contentSchema,
  shortSummary: mediumSchema.optional(),
  tokensBefore: countSchema,
  tokensAfter: countSchema.optional(),
  /** tokensAfter is the estimate saved with the entry: no reply has reported the real figure yet */
  tokensAfterEstimated: z.boolean().optional(),
  reason: compactionReasonSchema.optional(),
  /** summarizer model label */
  model: shortSchema.optional(),
  cost: costSchema.optional(),
  readFiles: z.array(mediumSchema).max(LIMITS.files),
  modifiedFiles: z.array(mediumSchema).max(LIMITS.files),
  firstKeptEntryId: idSchema,
  /** the user's messages this compaction kept verbatim, its pinned messages and ledger lines */
  kept: z.array(keptWordsSchema).max(LIMITS.list).optional(),
  /** a provider-native context sent in place of the summary to this model (at this host) */
  nativeContext: z.strictObject({ provider: shortSchema, model: shortSchema, host: shortSchema.optional() }).optional(),
});

export const branchSummaryItemSchema = z.strictObject({
  kind: z.literal('branch_summary'),
  ...itemBase,
  summary: contentSchema,
  fromId: idSchema,
  /** summarizer model label and what its calls cost */
  model: shortSchema.optional(),
  cost: costSchema.optional(),
  readFiles: z.array(mediumSchema).max(LIMITS.files),
  modifiedFiles: z.array(mediumSchema).max(LIMITS.files),
  /** a finished stage summarized (Summarize from here): the originals end at `leafId` */
  stage: z.strictObject({ leafId: idSchema, label: labelSchema.optional() }).optional(),
});

export const customMessageItemSchema = z.strictObject({
  kind: z.literal('custom_message'),
  ...itemBase,
  customType: shortSchema,
  text: contentSchema,
});

/** A shell command the user ran directly (pi's bashExecution message). */
export const bashItemSchema = z.strictObject({
  kind: z.literal('bash'),
  ...itemBase,
  command: mediumSchema,
  output: contentSchema,
  exitCode: z.number().int().min(-1_000_000).max(1_000_000).nullable(),
  cancelled: z.boolean(),
});

/** Model/thinking changes and other one-line events on the path. */
export const noticeItemSchema = z.strictObject({
  kind: z.literal('notice'),
  ...itemBase,
  level: noticeLevelSchema,
  text: mediumSchema,
});

export const conversationItemSchema = z.discriminatedUnion('kind', [
  userItemSchema,
  assistantItemSchema,
  toolResultItemSchema,
  compactionItemSchema,
  branchSummaryItemSchema,
  customMessageItemSchema,
  bashItemSchema,
  noticeItemSchema,
]);
export type ConversationItem = z.infer<typeof conversationItemSchema>;
export type UserItem = z.infer<typeof userItemSchema>;
export type AssistantItem = z.infer<typeof assistantItemSchema>;
export type ToolResultItem = z.infer<typeof toolResultItemSchema>;
export type CompactionItem = z.infer<typeof compactionItemSchema>;
export type BranchSummaryItem = z.infer<typeof branchSummaryItemSchema>;
export type CustomMessageItem = z.infer<typeof customMessageItemSchema>;
export type BashItem = z.infer<typeof bashItemSchema>;
export type NoticeItem = z.infer<typeof noticeItemSchema>;
