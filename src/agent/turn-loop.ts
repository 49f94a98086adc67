// One run of the agent: the user message (or a hidden continue prompt, or nothing on a retry) is persisted,
// then reply → tool calls → reply … until the model stops, the user stops it, or a recovery gives up.
// Apart from agent-session.ts, which keeps the session's state, queue and public API: this is only the
// loop, and it reaches the session through TurnLoopHost. The context is rebuilt from the store's leaf
// before every request, and the context maintainer (context-maintainer.ts) is called at its seams.
import { userContent, type AgentMessage, type AssistantMessage, type ImageContent, type ToolCall, type UserMessage } from '../core/messages';
import { renderPrompt } from '../core/prompts';
import { imagesFor } from '../llm/image-input';
import type { StreamRequest } from '../llm/types';
import { convertToLlm } from '../session/convert';
import type { AgentSessionDeps } from './agent-session-types';
import { recoveryFor } from './compaction-triggers';
import type { ContextMaintainer, RunState } from './context-maintainer';
import { assistantToolCalls } from './events';
import { streamToReply, thinkingOf } from './reply-stream';
import { withValidToolCallIds } from './tool-call-ids';
import { runToolCalls, skipToolCalls, STOPPED_REASON, type ToolCallEnvironment } from './tool-calls';
import { toolDefinitions, type AgentTool } from './tools';
import type { SessionCoreHost, TurnInputs } from './turn-inputs';

/** The hidden prompt the Continue action of a cut-off reply sends. */
export const CONTINUE_CUSTOM_TYPE = 'continue';

/** A prompt waiting for the running turn (a taken-back one returns to the input with its images). */
export interface QueuedPrompt {
  text: string;
  images: readonly ImageContent[];
}

/** What the loop reads from and tells the session that runs it. */
export interface TurnLoopHost extends SessionCoreHost {
  readonly deps: AgentSessionDeps;
  readonly inputs: TurnInputs;
  readonly maintainer: ContextMaintainer;
  /** Model / thinking-level changes made while busy, persisted between requests. */
  applyPendingChanges(): Promise<void>;
  /** The controller Stop and Compact abort (one per run). */
  startRun(controller: AbortController): void;
  /** A reply was persisted: its cost counts, the meter updates. */
  replyPersisted(reply: AssistantMessage): void;
}

export class TurnLoop {
  constructor(private readonly host: TurnLoopHost) {}

  /** One user message and everything the agent does about it. */
  async conversation({ text, images }: QueuedPrompt): Promise<void> {
    const signal = this.newRun();
    await this.host.applyPendingChanges();
    await this.host.maintainer.maintainBeforePrompt(signal);
    if (signal.aborted) return;
    this.host.maintainer.resetOverflowGuard();
    const message: UserMessage = { role: 'user', content: userContent(text, images), timestamp: this.host.now() };
    await this.host.persist(message);
    await this.loop(newRunState(), signal);
  }

  /** Continue after a reply cut off at the output limit: a hidden "continue" prompt on the current path. */
  continuation(): Promise<void> {
    const content = renderPrompt('system/continue-cut-off').trim();
    return this.resumeFromLeaf({ role: 'custom', customType: CONTINUE_CUSTOM_TYPE, content, display: false, timestamp: this.host.now() });
  }

  /** The loop from the current leaf, after appending `first` when given (a hidden continue prompt). */
  async resumeFromLeaf(first?: AgentMessage): Promise<void> {
    const signal = this.newRun();
    await this.host.applyPendingChanges();
    this.host.maintainer.resetOverflowGuard();
    if (first) await this.host.persist(first);
    await this.loop(newRunState(), signal);
  }

  private newRun(): AbortSignal {
    const controller = new AbortController();
    this.host.startRun(controller);
    return controller.signal;
  }

  private async loop(state: RunState, signal: AbortSignal): Promise<void> {
    for (let first = true; ; first = false) {
      if (signal.aborted) return;
      await this.host.applyPendingChanges();
      // The tool list is live, read once a request: a later request of the run lists the tools offered then.
      const tools = this.host.inputs.offeredTools();
      const prompt = first ? await this.host.inputs.resolveSystemPrompt(tools) : await this.host.inputs.systemPromptForRequest(tools);
      const { message, entryId } = await this.streamReply(prompt, tools, signal);
      const step = await this.afterReply(message, entryId, state, signal);
      if (step === 'stop') return;
    }
  }

  /** What a persisted reply leads to: another request, or the end of the run. */
  private async afterReply(message: AssistantMessage, entryId: string, state: RunState, signal: AbortSignal): Promise<'again' | 'stop'> {
    const calls = assistantToolCalls(message);
    const env = this.host.inputs.toolEnvironment();
    if (message.stopReason === 'aborted') {
      await skipToolCalls(env, calls, STOPPED_REASON);
      return 'stop';
    }
    if (message.stopReason === 'error' || message.stopReason === 'length') return this.afterFailedReply({ message, entryId, calls, env }, state, signal);
    this.host.maintainer.resetOverflowGuard();
    if (calls.length > 0) {
      const ran = await runToolCalls(env, calls, signal);
      await this.host.deps.checkpoints?.finishTurn((customType, data) => this.host.store().appendCustomEntry(customType, data));
      if (ran === 'aborted') return 'stop';
      await this.host.maintainer.maintainMidTurn(signal);
      return 'again';
    }
    return (await this.host.maintainer.maintainAfterRun(message, state, signal)) ? 'again' : 'stop';
  }

  /** A reply that failed or was cut off: recovered (asked again), reported by the maintainer, or shown. */
  private async afterFailedReply(reply: FailedReply, state: RunState, signal: AbortSignal): Promise<'again' | 'stop'> {
    const { message, entryId, calls, env } = reply;
    const recovery = recoveryFor(message, this.host.model());
    const recovered = recovery ? await this.host.maintainer.recover(recovery, entryId, state, signal) : 'none';
    if (recovered === 'retry') return 'again';
    const reason = message.stopReason === 'length' ? 'the reply was cut off before it was complete.' : 'the reply failed.';
    await skipToolCalls(env, calls, reason);
    if (recovered === 'reported') return 'stop';
    if (message.stopReason === 'error') {
      this.host.emit({ type: 'error', message: message.errorMessage ?? 'The provider returned an error.', ...errorKindOf(message) });
    } else {
      this.host.emit({ type: 'cut_off', entryId });
    }
    return 'stop';
  }

  private async streamReply(systemPrompt: string, tools: readonly AgentTool[], signal: AbortSignal): Promise<{ message: AssistantMessage; entryId: string }> {
    const model = this.host.model();
    const context = this.host.store().buildContext();
    const request: StreamRequest = {
      model,
      systemPrompt,
      messages: imagesFor(model, convertToLlm(context.messages)),
      signal,
      ...(tools.length > 0 ? { tools: toolDefinitions(tools) } : {}),
      ...(this.host.deps.maxTokens ? { maxTokens: this.host.deps.maxTokens } : {}),
      ...thinkingOf(context.thinkingLevel),
    };
    const reply = await streamToReply(this.host.inputs.providerFor(model), request, (event) => this.host.emit(event), () => this.host.now());
    const final = this.withValidToolCallIds(reply);
    const entryId = await this.host.persist(final);
    this.host.replyPersisted(final);
    return { message: final, entryId };
  }

  /** Replaces tool-call ids the UI cannot carry (or duplicates) before the reply is persisted; logged. */
  private withValidToolCallIds(reply: AssistantMessage): AssistantMessage {
    const { message, replaced } = withValidToolCallIds(reply);
    for (const { original, replacement, reason } of replaced) {
      this.host.deps.log?.(`tool call id ${JSON.stringify(original.slice(0, 80))} from ${reply.provider} is ${reason}; replaced by ${replacement}`);
    }
    return message;
  }
}

/** A persisted reply that failed or was cut off, with the tool calls it asked for and their environment. */
interface FailedReply {
  message: AssistantMessage;
  entryId: string;
  calls: readonly ToolCall[];
  env: ToolCallEnvironment;
}

function newRunState(): RunState {
  return { lengthRecovered: false, autoContinued: false };
}

function errorKindOf(message: AssistantMessage): { kind?: string; provider: string } {
  return { ...(typeof message.errorKind === 'string' ? { kind: message.errorKind } : {}), provider: message.provider };
}
