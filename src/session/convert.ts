// Turns the session's AgentMessages into what a provider accepts (pi's `convertToLlm`, docs/pi-compatibility.md "Building the context").
// The summary wrappers come from prompts/*.md and must equal pi's bytes, so a pi session gives the LLM
// the same context in Arbor as in pi.
import type {
  AgentMessage,
  BashExecutionMessage,
  ImageContent,
  LlmMessage,
  TextContent,
  UserMessage,
} from '../core/messages';
import { loadTemplate, renderTemplate } from '../core/prompts';
import { NATIVE_COMPACTION_FIELD } from '../core/native-compaction';
import { ompRoleToLlm, withoutBlobImagesIn } from './omp-messages';

export const COMPACTION_SUMMARY_TEMPLATE = 'compaction-summary-context';
export const BRANCH_SUMMARY_TEMPLATE = 'branch-summary-context';

/**
 * Template text without the single newline that ends a Markdown file: pi's wrappers end right after
 * `</summary>`, and editors insist on a final newline.
 */
function wrapperTemplate(name: string): string {
  const text = loadTemplate(name);
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function compactionSummaryText(summary: string): string {
  return renderTemplate(wrapperTemplate(COMPACTION_SUMMARY_TEMPLATE), { summary });
}

export function branchSummaryText(summary: string): string {
  return renderTemplate(wrapperTemplate(BRANCH_SUMMARY_TEMPLATE), { summary });
}

/** pi's rendering of a user-run shell command. Exit code 0 (or unknown) is not mentioned. */
export function bashExecutionText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
  if (message.cancelled) text += '\n\n(command cancelled)';
  else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

function userText(text: string, timestamp: number): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

/** One message as the LLM sees it, or undefined when it must not reach the LLM. */
export function toLlmMessage(message: AgentMessage): LlmMessage | undefined {
  switch (message.role) {
    case 'user':
    case 'assistant':
    case 'toolResult':
    case 'system':
      return message;
    case 'custom': {
      const content: (TextContent | ImageContent)[] =
        typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
      return { role: 'user', content, timestamp: message.timestamp };
    }
    case 'bashExecution':
      return message.excludeFromContext ? undefined : userText(bashExecutionText(message), message.timestamp);
    case 'compactionSummary': {
      const text = userText(compactionSummaryText(message.summary), message.timestamp);
      return message.native ? { ...text, [NATIVE_COMPACTION_FIELD]: message.native } : text;
    }
    case 'branchSummary':
      return userText(branchSummaryText(message.summary), message.timestamp);
    default:
      // Roles Arbor does not know are not sent rather than guessed at (omp's: see toLlmMessages).
      return undefined;
  }
}

/** One message as the LLM sees it: none, one, or (omp's `fileMention`) two; blob images replaced. */
export function toLlmMessages(message: AgentMessage): LlmMessage[] {
  const converted = toLlmMessage(message);
  if (converted) return [withoutBlobImagesIn(converted)];
  return ompRoleToLlm(message as unknown as Record<string, unknown>) ?? [];
}

export function convertToLlm(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) out.push(...toLlmMessages(message));
  return out;
}
