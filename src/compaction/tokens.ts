// Token accounting for compaction decisions. The default estimator is pi's chars/4 rule so that cut
// points land where pi would put them; a real tokenizer can be injected (src/llm/tokens.ts) where
// precision matters more than pi compatibility.
import type { AgentMessage, AssistantMessage, Usage } from '../core/messages';
import {
  calculateContextTokens,
  estimateContextTokens as estimateWith,
  sumTokens as sumWith,
  type ContextTokenEstimate,
  type TokenEstimator,
} from '../core/usage';

export { calculateContextTokens, hasValidUsage, lastUsageIndex } from '../core/usage';
export type { ContextTokenEstimate, TokenEstimator } from '../core/usage';

/** pi counts an image as 4800 characters (about 1200 tokens) except inside user messages. */
const IMAGE_CHARS = 4800;

function blockChars(content: string | readonly { type: string; text?: unknown }[], countImages: boolean): number {
  if (typeof content === 'string') return content.length;
  let chars = 0;
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') chars += block.text.length;
    else if (block.type === 'image' && countImages) chars += IMAGE_CHARS;
  }
  return chars;
}

function assistantChars(message: AssistantMessage): number {
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'toolCall') chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

/** Characters pi attributes to a message, per role (docs/pi-compatibility.md "Token accounting"). */
export function messageChars(message: AgentMessage): number {
  switch (message.role) {
    case 'user':
      return blockChars(message.content, false);
    case 'assistant':
      return assistantChars(message);
    case 'custom':
    case 'toolResult':
      return blockChars(message.content, true);
    case 'bashExecution':
      return message.command.length + (message.output?.length ?? 0);
    case 'branchSummary':
    case 'compactionSummary':
      return message.summary.length;
    default:
      return 0;
  }
}

/** pi's estimate: ceil(chars / 4). */
export const estimateTokens: TokenEstimator = (message) => Math.ceil(messageChars(message) / 4);

/** Tokens of the prompt side only (what the context occupied when the request was sent). */
export function promptTokens(usage: Usage): number {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return prompt > 0 ? prompt : calculateContextTokens(usage);
}

/** Reported usage of the newest reply plus estimates for what came after it (docs/pi-compatibility.md "Token accounting"). */
export function estimateContextTokens(
  messages: readonly AgentMessage[],
  estimator: TokenEstimator = estimateTokens,
): ContextTokenEstimate {
  return estimateWith(messages, estimator);
}

export function sumTokens(
  messages: readonly AgentMessage[],
  from: number,
  to: number,
  estimator: TokenEstimator = estimateTokens,
): number {
  return sumWith(messages, from, to, estimator);
}
