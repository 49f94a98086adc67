// The one message protocol between the extension host and the chat webview. Both sides import this
// module (the webview bundles it), so a message shape is defined exactly once. Every received message is
// validated with these schemas; anything that does not parse is logged and dropped, never acted on.
// No `vscode`, no Node APIs: this file runs in the browser too.
//
// Conventions
// - Each direction is a discriminated union on `type`; adding a message type is backwards compatible
//   (an old receiver drops it as unknown, logged). Changing a shape incompatibly bumps PROTOCOL_VERSION.
// - Messages are strict objects (unknown keys are refused) except nested data objects marked otherwise.
// - Every string, array and number is bounded, so a hostile or buggy peer cannot make the receiver
//   allocate without limit or act on nonsense (negative indexes, NaN, Infinity).
import { z } from 'zod';
import { filesPreviewMessageSchema, navigateFilesSchema, previewFilesMessageSchema, showFileChangesMessageSchema } from './files';
import { attachImagesMessageSchema, IMAGE_LIMITS, imageSchema, imagesAttachedMessageSchema, pickImagesMessageSchema, userImagesSchema } from './images';

/** Bumped when a change is not backwards compatible; the webview reports the version it speaks.
 *  3: the conversation arrives windowed (`conversation` carries the tail and `hasEarlier`; `loadEarlier` /
 *  `conversationPage` fetch older pages, the answer echoing its request's `seq`), label changes arrive as
 *  `labels`. The host does not act on the version (the webview ships in the same bundle as the host); it
 *  names the shapes a webview speaks, so an incompatible change in a released version bumps it.
 *  4: a user item's `images` are the images themselves (`{ shown, hidden }`, src/protocol/images.ts), no
 *  longer a count; `prompt` may carry `images`; `attachImages` / `pickImages` → `imagesAttached`. */
export const PROTOCOL_VERSION = 4;

// ---------------------------------------------------------------------------------------------------
// Limits (exported so senders can truncate before sending, and tests can probe the edges)

export const LIMITS = {
  /** entry ids, tool call ids, model keys */
  id: 256,
  /** labels on entries */
  label: 200,
  /** a prompt the user sends; also the editor prefill */
  prompt: 200_000,
  /** free-form instructions (compaction, branch summary) and deny feedback */
  instructions: 20_000,
  /** one text block of a message (assistant text, tool result, summary) on the host -> webview side */
  content: 2_000_000,
  /** one streaming delta */
  delta: 200_000,
  /** short one-line strings: previews, tool names, model names, reasons, notices */
  short: 1_000,
  /** medium strings: error messages, notices, file paths */
  medium: 20_000,
  /** copy / insert-at-cursor payloads from the webview */
  clipboard: 1_000_000,
  /** nodes of a tree */
  items: 200_000,
  /** items of one conversation window or page (and the most a `loadEarlier` may ask for) */
  page: 1_000,
  /** blocks per assistant message */
  blocks: 2_000,
  /** file lists of compactions and branch summaries */
  files: 10_000,
  /** queued prompts, models */
  list: 1_000,
  /** sequence numbers of `loadEarlier` requests (the webview wraps around to 0 after this) */
  seq: 2_147_483_647,
} as const;

/**
 * How many conversation items the host sends when the path is (re)loaded: the tail of the active path.
 * The webview asks for older ones in pages of this size as the user scrolls up. 200 items are dozens of
 * screens of a side bar (so most sessions arrive whole, `hasEarlier: false`), while building, posting
 * and validating them stays a few milliseconds whatever the length of the path (a 32,000-entry path sent
 * whole cost 122 ms of host work and a 40 MB message).
 */
export const CONVERSATION_PAGE = 200;

/** How many workspace files an @-mention completion lists at most. */
export const MENTION_MATCHES = 50;

// ---------------------------------------------------------------------------------------------------
// Primitive shapes

const idSchema = z.string().min(1).max(LIMITS.id);
/** numbers a `loadEarlier` request; its `conversationPage` answer carries the same number */
const seqSchema = z.number().int().min(0).max(LIMITS.seq);
const labelSchema = z.string().max(LIMITS.label);
const shortSchema = z.string().max(LIMITS.short);
const mediumSchema = z.string().max(LIMITS.medium);
const contentSchema = z.string().max(LIMITS.content);
/** ms since epoch (0 when unknown) */
const timestampSchema = z.number().int().min(0).max(8.64e15);
const countSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** USD */
const costSchema = z.number().min(0).max(1e9);
/** JSON-like tool arguments: an object, shallowly bounded; values are rendered, never executed. */
const toolArgsSchema = z.record(z.string().max(LIMITS.short), z.unknown());

export const thinkingLevelSchema = z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']);
export type ThinkingLevel = z.infer<typeof thinkingLevelSchema>;

/** why a compaction ran; `manual-cut`: Compact Up To Here, at an entry the user chose */
export const compactionReasonSchema = z.enum(['manual', 'manual-cut', 'threshold', 'overflow', 'idle', 'length']);
export type CompactionReasonName = z.infer<typeof compactionReasonSchema>;

const logLevelSchema = z.enum(['info', 'warn', 'error']);
export type LogLevel = z.infer<typeof logLevelSchema>;

const noticeLevelSchema = z.enum(['info', 'warning', 'error']);
export type NoticeLevel = z.infer<typeof noticeLevelSchema>;

export const toolStatusSchema = z.enum(['pending', 'awaitingApproval', 'running', 'done', 'error', 'denied', 'aborted', 'skipped']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

/** an Arbor setting's id, for Open Settings */
const settingIdSchema = z.string().max(LIMITS.short).regex(/^arbor\.[A-Za-z0-9_.]+$/);

/** What an error or notice offers as a button; the webview sends it back as the message of the same name. */
export const errorActionSchema = z.discriminatedUnion('kind', [
  /** *Arbor: Set API Key* for this provider */
  z.strictObject({ kind: z.literal('setApiKey'), provider: shortSchema }),
  /** the Settings UI at this setting */
  z.strictObject({ kind: z.literal('openSettings'), setting: settingIdSchema }),
]);
export type ErrorAction = z.infer<typeof errorActionSchema>;
const errorActionsSchema = z.array(errorActionSchema).max(3);

// ---------------------------------------------------------------------------------------------------
// State

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
  /** whether the agent works on a turn (Stop shown); default false */
  busy: z.boolean().optional(),
  /** prompts typed while busy, waiting for the turn to end, oldest first; default [] */
  queued: z.array(z.string().max(LIMITS.prompt)).max(LIMITS.list).optional(),
  /** default: no meter */
  usage: usageSchema.nullable().optional(),
  /** default { branchSummaryEnabled: true } */
  settings: uiSettingsSchema.optional(),
});
export type ChatState = z.infer<typeof chatStateSchema>;

// ---------------------------------------------------------------------------------------------------
// Conversation snapshot (the active path, root first)

const itemBase = {
  /** session entry id (tree node id) */
  entryId: idSchema,
  timestamp: timestampSchema,
  /** label set on this entry (label entries), if any */
  label: labelSchema.optional(),
  /** pinned on the active path: compactions keep the message verbatim (`pin` toggles it) */
  pinned: z.boolean().optional(),
};

export const textBlockSchema = z.strictObject({ type: z.literal('text'), text: contentSchema });
export const thinkingBlockSchema = z.strictObject({ type: z.literal('thinking'), thinking: contentSchema });
export const toolCallBlockSchema = z.strictObject({
  type: z.literal('toolCall'),
  id: idSchema,
  name: shortSchema,
  arguments: toolArgsSchema,
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
});

/** What a compaction kept verbatim from the user (src/compaction/constraints.ts), with its entry. */
export const keptWordsSchema = z.strictObject({
  entryId: idSchema,
  kind: z.enum(['constraint', 'correction', 'pinned']),
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
  /** the user's constraints, corrections and pinned messages this compaction kept verbatim */
  kept: z.array(keptWordsSchema).max(LIMITS.list).optional(),
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

// ---------------------------------------------------------------------------------------------------
// Tree

export const treeNodeKindSchema = z.enum([
  'user',
  'assistant',
  'toolResult',
  'compaction',
  'branch_summary',
  'custom_message',
  'bash',
  'model_change',
  'thinking_level_change',
  'label',
  'session_info',
  'custom',
  'other',
]);
export type TreeNodeKind = z.infer<typeof treeNodeKindSchema>;

export const treeNodeSchema = z.strictObject({
  id: idSchema,
  parentId: idSchema.nullable(),
  kind: treeNodeKindSchema,
  /** first line of the entry's text, trimmed (host truncates to LIMITS.short) */
  preview: shortSchema,
  label: labelSchema.optional(),
  /** pinned on the active path */
  pinned: z.boolean().optional(),
  /** on the path from the root to the current leaf */
  onActivePath: z.boolean(),
  /** this node IS the session's current leaf (the position new messages attach to) */
  isLeaf: z.boolean(),
  childCount: countSchema,
  timestamp: timestampSchema,
  /** files the reply's turn changed: how many, and "3 files changed" for the tooltip */
  files: z.strictObject({ count: countSchema, text: shortSchema }).optional(),
});
export type TreeNode = z.infer<typeof treeNodeSchema>;

// ---------------------------------------------------------------------------------------------------
// Streaming agent events (a UI projection of src/agent/events.ts)

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
    /** write/edit: a diff can be reviewed (openDiff) */
    canDiff: z.boolean(),
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

// ---------------------------------------------------------------------------------------------------
// Webview -> host

/** The webview finished loading its scripts and can receive messages (also after being shown again). */
export const readyMessageSchema = z.strictObject({
  type: z.literal('ready'),
  protocolVersion: z.number().int().positive().max(1000),
});

/** Asks the host to reveal the Session Tree view (kept for older webviews; same as openTree). */
export const showSessionTreeMessageSchema = z.strictObject({ type: z.literal('showSessionTree') });

/** Lets the webview's diagnostics (e.g. a dropped host message) reach the extension's output channel. */
export const webviewLogMessageSchema = z.strictObject({
  type: z.literal('log'),
  level: logLevelSchema,
  message: z.string().max(4000),
});

const navigationModeSchema = z.enum(['none', 'summarize', 'custom']);
export type NavigationMode = z.infer<typeof navigationModeSchema>;

export const webviewToHostSchema = z.discriminatedUnion('type', [
  readyMessageSchema,
  showSessionTreeMessageSchema,
  webviewLogMessageSchema,
  /** send a prompt (queued by the host while busy), with the composer's images (the host checks them again) */
  z.strictObject({ type: z.literal('prompt'), text: z.string().min(1).max(LIMITS.prompt), images: z.array(imageSchema).max(IMAGE_LIMITS.perMessage).optional() }),
  attachImagesMessageSchema,
  pickImagesMessageSchema,
  /** abort the running turn */
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('approve'), toolCallId: idSchema, always: z.boolean().optional() }),
  z.strictObject({ type: z.literal('deny'), toolCallId: idSchema, feedback: z.string().max(LIMITS.instructions).optional() }),
  /** open VS Code's diff editor for a pending write/edit */
  z.strictObject({ type: z.literal('openDiff'), toolCallId: idSchema }),
  /**
   * move the leaf to `targetId` (tree navigation); a user-message target moves to its parent and the host
   * answers with `editorText`. mode: none = no summary; summarize; custom = summarize with `instructions`.
   */
  z.strictObject({
    type: z.literal('navigate'),
    targetId: idSchema,
    mode: navigationModeSchema,
    instructions: z.string().max(LIMITS.instructions).optional(),
    /** the dialog's files choice (absent: the host asks, following arbor.checkpoints.restore) */
    files: navigateFilesSchema.optional(),
  }),
  previewFilesMessageSchema,
  showFileChangesMessageSchema,
  /** abort a running branch summary (the user stays where they were) */
  z.strictObject({ type: z.literal('cancelNavigation') }),
  /**
   * "Branch from here": the leaf becomes `entryId` itself (a user message stays on the path, its reply
   * leaves it); the next prompt continues right after it. No summary; nothing is deleted.
   */
  z.strictObject({ type: z.literal('branchHere'), entryId: idSchema }),
  z.strictObject({ type: z.literal('compact'), instructions: z.string().max(LIMITS.instructions).optional() }),
  /** set (label given, non-empty) or remove (label absent) an entry's label */
  z.strictObject({ type: z.literal('label'), entryId: idSchema, label: z.string().min(1).max(LIMITS.label).optional() }),
  /** pin (`pinned: true`) or unpin a message of the active path: an `arbor.pin` entry is appended */
  z.strictObject({ type: z.literal('pin'), entryId: idSchema, pinned: z.boolean() }),
  /** "Summarize from here": the host runs arbor.summarizeFromHere for the entry (its own preview and progress) */
  z.strictObject({ type: z.literal('summarizeFromHere'), entryId: idSchema }),
  /** fork the path up to entryId into a new session file */
  z.strictObject({ type: z.literal('fork'), entryId: idSchema }),
  z.strictObject({ type: z.literal('copy'), text: z.string().max(LIMITS.clipboard) }),
  z.strictObject({ type: z.literal('insertAtCursor'), code: z.string().max(LIMITS.clipboard) }),
  z.strictObject({ type: z.literal('selectModel'), key: idSchema }),
  z.strictObject({ type: z.literal('setThinkingLevel'), level: thinkingLevelSchema }),
  /** show the messages a compaction summarised (e.g. in a read-only editor or the Session Tree) */
  z.strictObject({ type: z.literal('showOriginal'), compactionId: idSchema }),
  /** navigate to the entry before the compaction's first kept entry (nothing is deleted) */
  z.strictObject({ type: z.literal('continueBeforeCompaction'), compactionId: idSchema }),
  /** remove a queued prompt */
  z.strictObject({ type: z.literal('dequeue'), index: z.number().int().min(0).max(LIMITS.list) }),
  z.strictObject({ type: z.literal('newSession') }),
  /** reveal the Session Tree view */
  z.strictObject({ type: z.literal('openTree') }),
  /** an error's action: run *Arbor: Set API Key* for `provider` (without one, it asks which provider) */
  z.strictObject({ type: z.literal('setApiKey'), provider: shortSchema.optional() }),
  /** an error's action: open the Settings UI at an Arbor setting */
  z.strictObject({ type: z.literal('openSettings'), setting: settingIdSchema }),
  /**
   * the webview shows the path ending at `leafId` from `beforeId` on and wants the (at most) `count` items
   * before `beforeId`; answered with `conversationPage` (echoing `seq`, which the webview numbers its
   * requests with), or refused (logged) when the path changed since
   */
  z.strictObject({
    type: z.literal('loadEarlier'),
    seq: seqSchema,
    leafId: idSchema,
    beforeId: idSchema,
    count: z.number().int().min(1).max(LIMITS.page),
  }),
  /** the user typed in the input (e.g. to defer idle compaction); throttled by the webview */
  z.strictObject({ type: z.literal('userTyping') }),
  /** Continue after a reply cut off at the output limit (a hidden "continue" prompt) */
  z.strictObject({ type: z.literal('continueReply') }),
  /** the chat's window got the focus: with several chats open, commands act on this one */
  z.strictObject({ type: z.literal('focused') }),
  /**
   * Edit in place: the user message `entryId` is sent again with `text` as a new branch (the leaf moves to
   * its parent, no summary, then the prompt); the original stays in the tree as an alternative
   */
  z.strictObject({ type: z.literal('editMessage'), entryId: idSchema, text: z.string().min(1).max(LIMITS.prompt) }),
  /** Retry a failed reply: the model is asked again from the entry before it; the failed reply stays in the tree */
  z.strictObject({ type: z.literal('retryReply'), entryId: idSchema }),
  /** @-mention completion: workspace files whose path contains `query`; answered with `fileMatches` (same `seq`) */
  z.strictObject({ type: z.literal('findFiles'), seq: seqSchema, query: z.string().max(LIMITS.short) }),
]);
export type WebviewToHostMessage = z.infer<typeof webviewToHostSchema>;
export type WebviewMessageOf<T extends WebviewToHostMessage['type']> = Extract<WebviewToHostMessage, { type: T }>;

// ---------------------------------------------------------------------------------------------------
// Host -> webview

/** The full chrome state; sent in answer to `ready` and whenever something the view shows changes. */
export const stateMessageSchema = z.strictObject({
  type: z.literal('state'),
  state: chatStateSchema,
});

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  stateMessageSchema,
  /**
   * the tail of the active path (its newest CONVERSATION_PAGE items, root side first); replaces whatever the
   * webview shows (after ready, navigation, reload). `hasEarlier`: the path has items before these.
   */
  z.strictObject({
    type: z.literal('conversation'),
    leafId: idSchema.nullable(),
    items: z.array(conversationItemSchema).max(LIMITS.page),
    hasEarlier: z.boolean(),
  }),
  /**
   * the answer to `loadEarlier` number `seq`: the items right before `beforeId` on the path ending at
   * `leafId`; the webview accepts only the answer to the request it is waiting for
   */
  z.strictObject({
    type: z.literal('conversationPage'),
    seq: seqSchema,
    leafId: idSchema,
    beforeId: idSchema,
    items: z.array(conversationItemSchema).max(LIMITS.page),
    hasEarlier: z.boolean(),
  }),
  /** labels set (label given) or removed (absent) on entries; the leaf moved onto the label entry */
  z.strictObject({
    type: z.literal('labels'),
    leafId: idSchema.nullable(),
    labels: z.array(z.strictObject({ entryId: idSchema, label: z.string().min(1).max(LIMITS.label).optional() })).max(LIMITS.list),
  }),
  /** messages pinned or unpinned on the active path; the leaf moved onto the pin entry */
  z.strictObject({
    type: z.literal('pins'),
    leafId: idSchema.nullable(),
    pins: z.array(z.strictObject({ entryId: idSchema, pinned: z.boolean() })).max(LIMITS.list),
  }),
  /** the whole session tree (parents before children is not required) */
  z.strictObject({
    type: z.literal('tree'),
    leafId: idSchema.nullable(),
    nodes: z.array(treeNodeSchema).max(LIMITS.items),
  }),
  /**
   * what changed in the tree since the last `tree` or `treePatch` (appends, labels, leaf moves): `added`
   * nodes are new (file order), `changed` ones replace the node with the same id (including every node
   * whose onActivePath / isLeaf flag flipped). Applying it to the previous tree equals the full tree.
   */
  z.strictObject({
    type: z.literal('treePatch'),
    added: z.array(treeNodeSchema).max(LIMITS.items),
    changed: z.array(treeNodeSchema).max(LIMITS.items),
    leafId: idSchema.nullable(),
  }),
  z.strictObject({ type: z.literal('agentEvent'), event: agentEventSchema }),
  /** progress of a `navigate` with a summary (and of plain navigations: done / failed) */
  z.strictObject({
    type: z.literal('navigationProgress'),
    targetId: idSchema,
    state: z.enum(['summarizing', 'done', 'cancelled', 'failed']),
    message: mediumSchema.optional(),
  }),
  filesPreviewMessageSchema,
  imagesAttachedMessageSchema,
  /** prefill the input (edit & resend, navigation to a user message) */
  z.strictObject({ type: z.literal('editorText'), text: z.string().max(LIMITS.prompt) }),
  z.strictObject({ type: z.literal('notice'), level: noticeLevelSchema, message: mediumSchema, actions: errorActionsSchema.optional() }),
  /** scroll the conversation to an entry and highlight it briefly (Session Tree selection); when the
   * entry is not on the active path the webview says so instead */
  z.strictObject({ type: z.literal('revealEntry'), entryId: idSchema }),
  /** the answer to `findFiles` number `seq`: workspace-relative paths, best first */
  z.strictObject({ type: z.literal('fileMatches'), seq: seqSchema, files: z.array(mediumSchema).max(MENTION_MATCHES) }),
  /** host-initiated UI actions (commands, keybindings) */
  z.strictObject({ type: z.literal('uiCommand'), command: z.enum(['focusInput', 'toggleTree', 'showTree', 'openModelPicker', 'compactDialog']) }),
]);
export type HostToWebviewMessage = z.infer<typeof hostToWebviewSchema>;
export type HostMessageOf<T extends HostToWebviewMessage['type']> = Extract<HostToWebviewMessage, { type: T }>;
