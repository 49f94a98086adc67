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
// The two directions' unions live here; the shapes they carry are split by family (primitives, chat state,
// conversation items, tree nodes, agent events) and re-exported, so this stays the one protocol module.
import { z } from 'zod';
import { filesPreviewMessageSchema, navigateFilesSchema, previewFilesMessageSchema, showFileChangesMessageSchema } from './files';
import { attachImagesMessageSchema, draftImageSchema, draftImagesMessageSchema, IMAGE_LIMITS, imageSchema, imagesAttachedMessageSchema, pickImagesMessageSchema, restoreDraftImagesMessageSchema } from './images';
import { approvalModeSchema, errorActionsSchema, idSchema, LIMITS, logLevelSchema, mediumSchema, MENTION_MATCHES, noticeLevelSchema, seqSchema, settingIdSchema, shortSchema, thinkingLevelSchema } from './protocol-primitives';
import { chatStateSchema } from './chat-state';
import { conversationItemSchema } from './conversation-items';
import { treeNodeSchema } from './tree-nodes';
import { agentEventSchema } from './agent-events';

export * from './protocol-primitives';
export * from './chat-state';
export * from './conversation-items';
export * from './tree-nodes';
export * from './agent-events';

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
  /**
   * send a prompt (queued by the host while busy), with the composer's images (the host checks them
   * again); the text may be empty when images go (a pasted screenshot alone), never both
   */
  z
    .strictObject({ type: z.literal('prompt'), text: z.string().max(LIMITS.prompt), images: z.array(imageSchema).max(IMAGE_LIMITS.perMessage).optional() })
    .refine((m) => m.text.length > 0 || (m.images?.length ?? 0) > 0, { message: 'a prompt needs text or images' }),
  attachImagesMessageSchema,
  pickImagesMessageSchema,
  draftImagesMessageSchema,
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
  /** the composer's mode picker */
  z.strictObject({ type: z.literal('setApprovalMode'), mode: approvalModeSchema }),
  /** "Run this plan": leave Plan mode for Ask or Auto-edit and send the follow-up prompt */
  z.strictObject({ type: z.literal('runPlan'), mode: approvalModeSchema.exclude(['plan']) }),
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
  /** open an instruction file the chat state lists (by its `path` there) */
  z.strictObject({ type: z.literal('openInstructionFile'), path: mediumSchema }),
  /** list the instruction files, skills and skill problems in a pick; the chosen file or SKILL.md opens */
  z.strictObject({ type: z.literal('showInstructions') }),
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
  z.strictObject({ type: z.literal('editMessage'), entryId: idSchema, text: z.string().max(LIMITS.prompt) }),
  /** Retry a failed reply: the model is asked again from the entry before it; the failed reply stays in the tree */
  /** Retry: ask again in place of a reply (`pickModel`: the host asks which model first) */
  z.strictObject({ type: z.literal('retryReply'), entryId: idSchema, pickModel: z.boolean().optional() }),
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
  restoreDraftImagesMessageSchema,
  /**
   * prefill the input (edit & resend, navigation to a user message); a queued prompt taken back (Remove,
   * Stop) brings its `images` back as chips too
   */
  z.strictObject({
    type: z.literal('editorText'),
    text: z.string().max(LIMITS.prompt),
    images: z.array(draftImageSchema).max(IMAGE_LIMITS.perMessage).optional(),
    /** added after what is being written (the editor's Add to Chat) instead of replacing it */
    append: z.boolean().optional(),
  }),
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
