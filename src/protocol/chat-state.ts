// The chat's state as the host sends it (models, usage, UI settings, what is running). Part of the one
// protocol that messages.ts exports; no `vscode`, no Node APIs.
import { z } from 'zod';
import { approvalModeSchema, costSchema, countSchema, idSchema, LIMITS, mediumSchema, shortSchema, thinkingLevelSchema } from './protocol-primitives';

/** One selectable model. `key` is what `selectModel` sends back ("provider/id"). */
export const modelOptionSchema = z.strictObject({
  key: idSchema,
  label: shortSchema,
  provider: shortSchema,
  contextWindow: countSchema,
  reasoning: z.boolean(),
  /** reads images (absent: no); the composer refuses to send images to a model without */
  images: z.boolean().optional(),
  /** its provider needs an API key and none is set: the picker marks it and offers Set API Key */
  keyMissing: z.boolean().optional(),
});
export type ModelOption = z.infer<typeof modelOptionSchema>;

/** The context meter's figures. */
export const usageSchema = z.strictObject({
  /** tokens the model saw in its newest reply; null right after a compaction until a reply reports usage */
  contextTokens: countSchema.nullable(),
  /** chars/4 estimate of the current context, shown (marked "≈") when contextTokens is null */
  estimatedTokens: countSchema,
  contextWindow: countSchema,
  /** automatic compaction runs above this many tokens */
  thresholdTokens: countSchema,
  /** USD of every reply in this session file, and of the replies on the active path */
  sessionCost: costSchema,
  branchCost: costSchema,
  /** input+output tokens of the replies on the active path */
  branchTokens: countSchema,
});
export type UsageSnapshot = z.infer<typeof usageSchema>;

/** Settings the panel's behaviour depends on. */
export const uiSettingsSchema = z.strictObject({
  /** arbor.branchSummary.enabled: false = switching branches does not ask (dialog stays in a context action) */
  branchSummaryEnabled: z.boolean(),
  /** warn at this fraction of the compaction threshold (default 0.85) */
  compactionWarningRatio: z.number().min(0).max(1).optional(),
});
export type UiSettings = z.infer<typeof uiSettingsSchema>;

/** One instruction file in use: shown by `label`, opened by sending `path` back (the host checks it is listed). */
export const instructionFileSchema = z.strictObject({
  label: shortSchema,
  path: mediumSchema,
  scope: z.enum(['global', 'root', 'nested']),
});

/** The chat's "Instructions: … · Skills: n" line. */
export const instructionsInfoSchema = z.strictObject({
  files: z.array(instructionFileSchema).max(LIMITS.list),
  skills: countSchema,
  /** skills not loaded, or loaded with a note (listed when the user opens the skills) */
  problems: countSchema,
});
export type InstructionsInfo = z.infer<typeof instructionsInfoSchema>;

/**
 * Everything the chat view's chrome renders from (the conversation and the tree come in their own
 * messages). Fields after `modelLabel` are optional so an older host still validates; the webview uses
 * the documented defaults.
 */
export const chatStateSchema = z.strictObject({
  extensionVersion: z.string().min(1).max(100),
  /** Names of the open workspace folders, in order; empty when no folder is open. */
  workspaceFolders: z.array(shortSchema).max(LIMITS.list),
  /** false in Restricted Mode: tools that edit files or run commands stay disabled. */
  workspaceTrusted: z.boolean(),
  /** Label of the selected model, or null when none is configured yet. */
  modelLabel: shortSchema.nullable(),
  /** why the workspace is restricted (shown in the banner); default: a generic text */
  restrictedReason: mediumSchema.optional(),
  /** session display name (session_info) and file path; null when no session is open */
  sessionName: shortSchema.nullable().optional(),
  sessionFile: mediumSchema.nullable().optional(),
  /** default [] */
  models: z.array(modelOptionSchema).max(LIMITS.list).optional(),
  /** key of the selected model in `models`; default null */
  currentModelKey: idSchema.nullable().optional(),
  /** default 'off' */
  thinkingLevel: thinkingLevelSchema.optional(),
  /** the session's approval mode; default 'ask' */
  approvalMode: approvalModeSchema.optional(),
  /** offer "Run this plan" (the host's rule, src/app/plan-ready.ts); default false */
  planReady: z.boolean().optional(),
  /** whether the agent works on a turn (Stop shown); default false */
  busy: z.boolean().optional(),
  /** prompts typed while busy, waiting for the turn to end, oldest first; default [] */
  queued: z.array(z.string().max(LIMITS.prompt)).max(LIMITS.list).optional(),
  /** default: no meter */
  usage: usageSchema.nullable().optional(),
  /** default { branchSummaryEnabled: true } */
  settings: uiSettingsSchema.optional(),
  /** instruction files and skills in use; default: none (no line) */
  instructions: instructionsInfoSchema.optional(),
});
export type ChatState = z.infer<typeof chatStateSchema>;
