// The protocol's version, its size limits and the small bounded shapes every message family builds on
// (ids, strings, counts, enums). Part of the one protocol that messages.ts exports; no `vscode`, no Node APIs.
import { z } from 'zod';

/** Bumped when a change is not backwards compatible; the webview reports the version it speaks.
 *  3: the conversation arrives windowed (`conversation` carries the tail and `hasEarlier`; `loadEarlier` /
 *  `conversationPage` fetch older pages, the answer echoing its request's `seq`), label changes arrive as
 *  `labels`. The host does not act on the version (the webview ships in the same bundle as the host); it
 *  names the shapes a webview speaks, so an incompatible change in a released version bumps it.
 *  4: a user item's `images` are the images themselves (`{ shown, hidden }`, src/protocol/images.ts), no
 *  longer a count; `prompt` may carry `images`; `attachImages` / `pickImages` → `imagesAttached`.
 *  5: a `prompt` may have empty text with images; `imagesAttached` images carry the host's `id`; the
 *  composer reports its chips (`draftImages`) and a re-created one gets them back (`restoreDraftImages`);
 *  `editorText` may carry `images` (a queued prompt taken back). */
export const PROTOCOL_VERSION = 5;

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

export const idSchema = z.string().min(1).max(LIMITS.id);
/** numbers a `loadEarlier` request; its `conversationPage` answer carries the same number */
export const seqSchema = z.number().int().min(0).max(LIMITS.seq);
export const labelSchema = z.string().max(LIMITS.label);
export const shortSchema = z.string().max(LIMITS.short);
export const mediumSchema = z.string().max(LIMITS.medium);
export const contentSchema = z.string().max(LIMITS.content);
/** ms since epoch (0 when unknown) */
export const timestampSchema = z.number().int().min(0).max(8.64e15);
export const countSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** USD */
export const costSchema = z.number().min(0).max(1e9);
/** JSON-like tool arguments: an object, shallowly bounded; values are rendered, never executed. */
export const toolArgsSchema = z.record(z.string().max(LIMITS.short), z.unknown());

export const thinkingLevelSchema = z.enum(['off', 'minimal', 'low', 'medium', 'high', 'xhigh']);
/** the session's approval mode (src/core/approval-modes.ts): Ask, Auto-edit, Plan */
export const approvalModeSchema = z.enum(['ask', 'autoEdit', 'plan']);
export type ApprovalModeName = z.infer<typeof approvalModeSchema>;
export type ThinkingLevel = z.infer<typeof thinkingLevelSchema>;

/** why a compaction ran; `manual-cut`: Compact Up To Here, at an entry the user chose */
export const compactionReasonSchema = z.enum(['manual', 'manual-cut', 'threshold', 'overflow', 'idle', 'length']);
export type CompactionReasonName = z.infer<typeof compactionReasonSchema>;

export const logLevelSchema = z.enum(['info', 'warn', 'error']);
export type LogLevel = z.infer<typeof logLevelSchema>;

export const noticeLevelSchema = z.enum(['info', 'warning', 'error']);
export type NoticeLevel = z.infer<typeof noticeLevelSchema>;

export const toolStatusSchema = z.enum(['pending', 'awaitingApproval', 'running', 'done', 'error', 'denied', 'aborted', 'skipped']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

/** an Arbor setting's id, for Open Settings */
export const settingIdSchema = z.string().max(LIMITS.short).regex(/^arbor\.[A-Za-z0-9_.]+$/);

/** What an error or notice offers as a button; the webview sends it back as the message of the same name. */
export const errorActionSchema = z.discriminatedUnion('kind', [
  /** *Arbor: Set API Key* for this provider */
  z.strictObject({ kind: z.literal('setApiKey'), provider: shortSchema }),
  /** the Settings UI at this setting */
  z.strictObject({ kind: z.literal('openSettings'), setting: settingIdSchema }),
]);
export type ErrorAction = z.infer<typeof errorActionSchema>;
export const errorActionsSchema = z.array(errorActionSchema).max(3);
