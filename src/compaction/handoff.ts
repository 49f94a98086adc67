// Strategy "handoff": instead of compacting in place, the current model writes a handoff document and
// the runtime starts a new session whose first entry is that document as a visible custom_message.
// The request reuses the live system prompt and history (so a provider cache still hits) and appends
// one user message asking for the document.
import type { AssistantMessage, LlmMessage } from '../core/messages';
import type { ModelInfo, Provider, ToolDefinition } from '../llm/types';
import { complete } from '../llm/types';
import { CompactionCancelled, SummarizationFailed } from './errors';
import { compactionPrompt } from './prompt-text';

export const HANDOFF_CUSTOM_TYPE = 'handoff';

export interface HandoffContext {
  systemPrompt: string;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
}

export interface HandoffOptions {
  provider: Provider;
  model: ModelInfo;
  signal?: AbortSignal;
  /** true for threshold/idle triggers: asks to favour the immediate implementation state */
  automatic?: boolean;
  customInstructions?: string;
  maxTokens?: number;
}

/** The handoff document, or '' when the model produced none (callers then fall back to context-full). */
export async function generateHandoff(context: HandoffContext, options: HandoffOptions): Promise<string> {
  const parts = [compactionPrompt('handoff')];
  if (options.automatic) parts.push(compactionPrompt('handoff-focus'));
  if (options.customInstructions?.trim()) parts.push(compactionPrompt('focus', { focus: options.customInstructions.trim() }));
  const request: LlmMessage = { role: 'user', content: [{ type: 'text', text: parts.join('\n\n') }], timestamp: Date.now() };
  let reply: AssistantMessage;
  try {
    reply = await complete(options.provider, {
      model: options.model,
      systemPrompt: context.systemPrompt,
      messages: [...context.messages, request],
      // The tools stay for the provider cache, but the answer must be the document, not a tool call.
      ...(context.tools ? { tools: context.tools, toolChoice: 'none' as const } : {}),
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw new CompactionCancelled();
    throw new SummarizationFailed((error as Error).message);
  }
  if (reply.stopReason === 'aborted' || options.signal?.aborted) throw new CompactionCancelled();
  if (reply.stopReason === 'error') throw new SummarizationFailed(reply.errorMessage ?? 'unknown error');
  return reply.content
    .filter((b): b is Extract<typeof b, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

/** Content of the custom_message that opens the new session (customType "handoff", display true). */
export function handoffMessageContent(document: string): string {
  return compactionPrompt('handoff-context', { document });
}
