// Message parts and tool options of `vscode.lm` that arrived after @types/vscode 1.90 (stable in 1.95):
// typed here as far as Arbor uses them and looked up on the running `vscode` module, so an older editor
// still works with text-only messages (lmParts() is then undefined).
import * as vscode from 'vscode';
import type { HostPart, HostTool } from '../llm/vscode-lm/host';

interface TextPart { value: string }
interface ToolCallPart { callId: string; name: string; input: object }

interface PartClasses {
  LanguageModelTextPart: new (value: string) => TextPart;
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => ToolCallPart;
  LanguageModelToolResultPart: new (callId: string, content: TextPart[]) => object;
  LanguageModelChatMessage: new (role: number, content: object[]) => vscode.LanguageModelChatMessage;
  LanguageModelChatMessageRole: { User: number; Assistant: number };
  LanguageModelChatToolMode?: { Auto: number };
}

export interface LmParts {
  message(role: 'user' | 'assistant', parts: object[]): vscode.LanguageModelChatMessage;
  part(part: HostPart): object;
  toolOptions(tools: HostTool[]): Record<string, unknown>;
  stream(response: vscode.LanguageModelChatResponse): AsyncIterable<unknown>;
  read(raw: unknown): Extract<HostPart, { type: 'text' | 'toolCall' }> | undefined;
}

function classes(): PartClasses | undefined {
  const api = vscode as unknown as Partial<PartClasses>;
  const complete = api.LanguageModelTextPart && api.LanguageModelToolCallPart && api.LanguageModelToolResultPart && api.LanguageModelChatMessageRole;
  return complete ? (api as PartClasses) : undefined;
}

export function lmParts(): LmParts | undefined {
  const c = classes();
  if (!c) return undefined;
  return {
    message: (role, parts) => new c.LanguageModelChatMessage(role === 'user' ? c.LanguageModelChatMessageRole.User : c.LanguageModelChatMessageRole.Assistant, parts),
    part: (part) => {
      if (part.type === 'text') return new c.LanguageModelTextPart(part.text);
      if (part.type === 'toolCall') return new c.LanguageModelToolCallPart(part.callId, part.name, part.input);
      return new c.LanguageModelToolResultPart(part.callId, [new c.LanguageModelTextPart(part.text)]);
    },
    toolOptions: (tools) => ({ tools, ...(c.LanguageModelChatToolMode ? { toolMode: c.LanguageModelChatToolMode.Auto } : {}) }),
    stream: (response) => (response as unknown as { stream: AsyncIterable<unknown> }).stream,
    read: (raw) => {
      if (raw instanceof c.LanguageModelTextPart) return { type: 'text', text: raw.value };
      if (raw instanceof c.LanguageModelToolCallPart) return { type: 'toolCall', callId: raw.callId, name: raw.name, input: raw.input as Record<string, unknown> };
      return undefined;
    },
  };
}
