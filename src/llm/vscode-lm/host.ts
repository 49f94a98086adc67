// The small slice of VS Code's Language Model API (`vscode.lm`) that the provider needs, stated without
// `vscode` so the provider stays in the core and is unit-tested in Node. The extension implements it in
// src/vscode/language-models.ts and passes it in through ProviderOptions.languageModels.

/** One chat model the editor offers (e.g. GitHub Copilot's), as `vscode.LanguageModelChat` describes it. */
export interface HostModel {
  /** `LanguageModelChat.id`, unique per editor */
  id: string;
  vendor: string;
  name: string;
  family: string;
  /** `maxInputTokens`: the context window for the prompt */
  maxInputTokens: number;
  /** whether the model takes tools (false when the editor's API has no tool calling) */
  toolCalling: boolean;
}

export type HostPart =
  | { type: 'text'; text: string }
  | { type: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { type: 'toolResult'; callId: string; text: string };

export interface HostMessage {
  role: 'user' | 'assistant';
  parts: HostPart[];
}

export interface HostTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface HostRequest {
  messages: HostMessage[];
  tools?: HostTool[];
  signal?: AbortSignal;
}

/** Why the editor refused a request (`LanguageModelError.code`, or a missing model). */
export type HostRefusal = 'no-permissions' | 'blocked' | 'not-found' | 'unsupported' | 'other';

/** A refusal that arrives once the reply has started (the editor reports some only then); ends the stream. */
export interface HostRefusedPart {
  type: 'refused';
  refusal: HostRefusal;
  message: string;
}

export type HostReplyPart = Extract<HostPart, { type: 'text' | 'toolCall' }> | HostRefusedPart;

export type HostStart =
  | { ok: true; parts: AsyncIterable<HostReplyPart> }
  | { ok: false; refusal: HostRefusal; message: string };

export interface LanguageModelHost {
  /** every chat model the editor offers now */
  models(): Promise<HostModel[]>;
  /** starts a request; a refusal (permission, quota, unknown model) is a result, not a throw */
  send(modelId: string, request: HostRequest): Promise<HostStart>;
  /** the model's own token count of a text (`LanguageModelChat.countTokens`) */
  countTokens(modelId: string, text: string, signal?: AbortSignal): Promise<number>;
}
