// Models the editor offers through VS Code's Language Model API (GitHub Copilot and others): no key,
// the editor asks the user for consent on first use. Runs against LanguageModelHost (./host.ts), so it
// has the same retry, idle watchdog and abort handling as the HTTP providers (src/llm/attempt.ts).
import type { ModelInfo, Provider, StreamEvent, StreamRequest } from '../types';
import { guardedAttempt, failedMessage, ABORTED_TEXT, type WireOutcome, type IdleWatchdog } from '../attempt';
import type { MessageBuilder } from '../message-builder';
import { retryFor, runWithRetry, type AttemptResult } from '../retry';
import { resolveProviderOptions, type ProviderOptions, type ResolvedProviderOptions } from '../provider-options';
import { countTextTokens } from '../tokens';
import { promptText, toHostMessages, toHostTools } from './convert';
import type { HostMessage, HostRefusal, LanguageModelHost } from './host';

export { VSCODE_LM_PROVIDER } from '../providers/vscode-lm';

/** `vscode-lm` model ids are `<vendor>/<editor model id>`; the editor knows the model by the second part. */
export function hostModelId(model: Pick<ModelInfo, 'id'>): string {
  const slash = model.id.indexOf('/');
  return slash < 0 ? model.id : model.id.slice(slash + 1);
}

function refusalText(model: ModelInfo, refusal: HostRefusal, detail: string): string {
  switch (refusal) {
    case 'no-permissions':
      return `VS Code has not allowed Arbor to use ${model.name} yet. Send the prompt again and choose "Allow" when VS Code asks (access can be changed under Accounts → Manage Language Model Access). ${detail}`.trim();
    case 'blocked':
      return `VS Code blocked the request to ${model.name} (quota or policy). ${detail}`.trim();
    case 'not-found':
      return `The model ${model.name} is no longer offered by VS Code; choose another model. ${detail}`.trim();
    case 'unsupported':
      return `This version of VS Code cannot send requests to ${model.name}. ${detail}`.trim();
    default:
      return `VS Code refused the request to ${model.name}. ${detail}`.trim();
  }
}

export class VscodeLmProvider implements Provider {
  private readonly options: ResolvedProviderOptions;

  constructor(private readonly model: ModelInfo, private readonly host: LanguageModelHost | undefined, options?: ProviderOptions) {
    this.options = resolveProviderOptions(options);
  }

  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const model = { ...this.model, ...request.model, api: this.model.api };
    return runWithRetry(() => this.attempt(model, request), retryFor(this.options.retry, request), request.signal, () => failedMessage(model, 'aborted', ABORTED_TEXT));
  }

  private async *attempt(model: ModelInfo, request: StreamRequest): AsyncGenerator<StreamEvent, AttemptResult> {
    if (!this.host) {
      return { message: failedMessage(model, 'error', refusalText(model, 'unsupported', 'VS Code language models are only available inside the editor.'), { errorKind: 'invalid_request' }), streamed: false };
    }
    const host = this.host;
    return yield* guardedAttempt(
      { model, signal: request.signal, idleTimeoutMs: this.options.idleTimeoutMs, secrets: () => [] },
      (builder, watchdog) => this.wire(host, model, request, builder, watchdog),
    );
  }

  private async *wire(host: LanguageModelHost, model: ModelInfo, request: StreamRequest, builder: MessageBuilder, watchdog: IdleWatchdog): AsyncGenerator<StreamEvent, WireOutcome> {
    const messages = toHostMessages(request.systemPrompt, request.messages);
    // The API has no "tools present but not callable" mode: without tool calls wanted, none are offered.
    const tools = request.toolChoice === 'none' ? undefined : toHostTools(request.tools);
    watchdog.kick();
    const started = await host.send(hostModelId(model), { messages, ...(tools ? { tools } : {}), signal: watchdog.signal });
    if (!started.ok) return { stopReason: 'error', errorMessage: refusalText(model, started.refusal, started.message), extra: { errorKind: 'auth' } };
    for await (const part of started.parts) {
      watchdog.kick();
      if (part.type === 'refused') return { stopReason: 'error', errorMessage: refusalText(model, part.refusal, part.message), extra: { errorKind: 'auth' } };
      if (part.type === 'text') yield* builder.text(part.text);
      else yield* this.toolCall(builder, part.callId, part.name, part.input);
    }
    if (request.signal?.aborted || watchdog.timedOut) return { stopReason: 'aborted' };
    const ended = builder.endAllTools();
    yield* ended.events;
    await this.countUsage(host, model, messages, builder, watchdog.signal);
    return { stopReason: builder.hasToolCalls() ? 'toolUse' : 'stop', ...(ended.error ? { stopReason: 'error', errorMessage: ended.error } : {}) };
  }

  private *toolCall(builder: MessageBuilder, callId: string, name: string, input: Record<string, unknown>): Generator<StreamEvent> {
    yield* builder.toolStart(callId, callId, name);
    yield* builder.toolDelta(callId, JSON.stringify(input));
  }

  /** The API reports no usage: the prompt and reply are counted with the model's own tokenizer. */
  private async countUsage(host: LanguageModelHost, model: ModelInfo, messages: HostMessage[], builder: MessageBuilder, signal: AbortSignal): Promise<void> {
    const reply = builder.content.map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? `${b.name}(${JSON.stringify(b.arguments)})` : '')).join('\n');
    const count = async (text: string) => (text ? host.countTokens(hostModelId(model), text, signal).catch(() => countTextTokens(text)) : 0);
    builder.usage.input = await count(promptText(messages));
    builder.usage.output = await count(reply);
  }
}
