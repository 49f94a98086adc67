// The one message protocol between the extension host and the chat webview. Both sides import this
// module (the webview bundles it), so a message shape is defined exactly once. Every received message is
// validated with these schemas; anything that does not parse is logged and dropped, never acted on.
// No `vscode`, no Node APIs: this file runs in the browser too.
import { z } from 'zod';

/** Bumped when a change is not backwards compatible; the webview reports the version it speaks. */
export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------------------
// Shared shapes

/**
 * Everything the chat view renders from. Later features add fields (conversation, tree, usage): add them
 * here as new keys, optional where an old host may not send them.
 */
export const chatStateSchema = z.object({
  extensionVersion: z.string().min(1),
  /** Names of the open workspace folders, in order; empty when no folder is open. */
  workspaceFolders: z.array(z.string()),
  /** false in Restricted Mode: tools that edit files or run commands stay disabled. */
  workspaceTrusted: z.boolean(),
  /** Label of the selected model, or null when none is configured yet. */
  modelLabel: z.string().nullable(),
});
export type ChatState = z.infer<typeof chatStateSchema>;

const logLevelSchema = z.enum(['info', 'warn', 'error']);
export type LogLevel = z.infer<typeof logLevelSchema>;

// ---------------------------------------------------------------------------------------------------
// Webview -> host

/** The webview finished loading its scripts and can receive messages. */
export const readyMessageSchema = z.strictObject({
  type: z.literal('ready'),
  protocolVersion: z.number().int().positive(),
});

/** Asks the host to reveal the Session Tree view. */
export const showSessionTreeMessageSchema = z.strictObject({
  type: z.literal('showSessionTree'),
});

/** Lets the webview's diagnostics (e.g. a dropped host message) reach the extension's output channel. */
export const webviewLogMessageSchema = z.strictObject({
  type: z.literal('log'),
  level: logLevelSchema,
  message: z.string().max(4000),
});

export const webviewToHostSchema = z.discriminatedUnion('type', [
  readyMessageSchema,
  showSessionTreeMessageSchema,
  webviewLogMessageSchema,
]);
export type WebviewToHostMessage = z.infer<typeof webviewToHostSchema>;

// ---------------------------------------------------------------------------------------------------
// Host -> webview

/** The full state; sent in answer to `ready` and whenever something the view shows changes. */
export const stateMessageSchema = z.strictObject({
  type: z.literal('state'),
  state: chatStateSchema,
});

export const hostToWebviewSchema = z.discriminatedUnion('type', [stateMessageSchema]);
export type HostToWebviewMessage = z.infer<typeof hostToWebviewSchema>;
