// The editor's language models (`vscode.lm`: GitHub Copilot and other vendors) behind the core's
// LanguageModelHost (src/llm/vscode-lm/host.ts). @types/vscode is 1.90, before tool calling reached the
// stable API (1.95): the message parts and tool options are typed locally (./lm-parts.ts) and
// feature-detected at run time; without them, tool calls and results travel as text.
import { errorText } from '../core/error-text';
import * as vscode from 'vscode';
import type { HostMessage, HostModel, HostPart, HostRefusal, HostReplyPart, HostRequest, HostStart, LanguageModelHost } from '../llm/vscode-lm/host';
import { lmParts, type LmParts } from './lm-parts';

const REFUSALS: Readonly<Record<string, HostRefusal>> = {
  NoPermissions: 'no-permissions',
  Blocked: 'blocked',
  NotFound: 'not-found',
};

/** The `LanguageModelError` code of an error (also when it crossed the extension host boundary). */
function refusalCode(error: unknown): HostRefusal | undefined {
  const named = error instanceof vscode.LanguageModelError || (error instanceof Error && error.name === 'LanguageModelError');
  return named ? REFUSALS[(error as { code?: string }).code ?? ''] : undefined;
}

/** Anything sendRequest throws, as a typed refusal. */
function refusalOf(error: unknown): { ok: false; refusal: HostRefusal; message: string } {
  return { ok: false, refusal: refusalCode(error) ?? 'other', message: errorText(error) };
}

function cancellation(signal: AbortSignal | undefined): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal?.aborted) source.cancel();
  signal?.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

/** Text form of a part, for editors without message parts. */
function partText(part: HostPart): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'toolCall') return `[tool call ${part.name} ${JSON.stringify(part.input)}]`;
  return `[tool result]\n${part.text}`;
}

function toChatMessage(message: HostMessage, parts: LmParts | undefined): vscode.LanguageModelChatMessage {
  if (!parts) {
    const text = message.parts.map(partText).join('\n');
    return message.role === 'user' ? vscode.LanguageModelChatMessage.User(text) : vscode.LanguageModelChatMessage.Assistant(text);
  }
  return parts.message(message.role, message.parts.map((p) => parts.part(p)));
}

async function* readParts(response: vscode.LanguageModelChatResponse, parts: LmParts | undefined, done: () => void): AsyncGenerator<HostReplyPart> {
  try {
    yield* responseParts(response, parts);
  } catch (error) {
    // A refusal can also arrive after the start (e.g. from another extension's provider); other errors
    // (network, cancellation) stay errors for the provider's classification and retry.
    const refusal = refusalCode(error);
    if (!refusal) throw error;
    yield { type: 'refused', refusal, message: (error as Error).message };
  } finally {
    done();
  }
}

async function* responseParts(response: vscode.LanguageModelChatResponse, parts: LmParts | undefined): AsyncGenerator<HostReplyPart> {
  if (!parts) {
    for await (const text of response.text) yield { type: 'text' as const, text };
    return;
  }
  for await (const raw of parts.stream(response)) {
    const part = parts.read(raw);
    if (part) yield part;
  }
}

export class VscodeLanguageModels implements LanguageModelHost {
  private readonly parts = lmParts();

  async models(): Promise<HostModel[]> {
    const models = await vscode.lm.selectChatModels();
    return models.map((m) => ({ id: m.id, vendor: m.vendor, name: m.name, family: m.family, maxInputTokens: m.maxInputTokens, toolCalling: this.parts !== undefined }));
  }

  private async find(id: string): Promise<vscode.LanguageModelChat | undefined> {
    return (await vscode.lm.selectChatModels({ id }))[0];
  }

  async send(modelId: string, request: HostRequest): Promise<HostStart> {
    const model = await this.find(modelId);
    if (!model) return { ok: false, refusal: 'not-found', message: '' };
    const token = cancellation(request.signal);
    const options: vscode.LanguageModelChatRequestOptions & Record<string, unknown> = {
      justification: vscode.l10n.t('Arbor sends your prompt and the conversation to this model.'),
      ...(request.tools && this.parts ? this.parts.toolOptions(request.tools) : {}),
    };
    try {
      const response = await model.sendRequest(request.messages.map((m) => toChatMessage(m, this.parts)), options, token.token);
      return { ok: true, parts: readParts(response, this.parts, () => token.dispose()) };
    } catch (error) {
      token.dispose();
      return refusalOf(error);
    }
  }

  async countTokens(modelId: string, text: string, signal?: AbortSignal): Promise<number> {
    const model = await this.find(modelId);
    if (!model) throw new Error(`model ${modelId} is not offered`);
    const token = cancellation(signal);
    try {
      return await model.countTokens(text, token.token);
    } finally {
      token.dispose();
    }
  }
}
