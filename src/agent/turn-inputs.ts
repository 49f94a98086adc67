// What every turn draws from the agent's dependencies: the settings, the tools offered and their environment,
// the system prompt, the providers (one per model, kept) and what the model saw last. Apart from
// agent-session.ts so the session keeps the turn loop and its state, and this the wiring to the deps.
import { DEFAULT_COMPACTION_SETTINGS, estimateTokens, type CompactionSettings } from '../compaction';
import type { AgentMessage, LlmMessage } from '../core/messages';
import { sameModel } from '../llm/models';
import { providerForApi } from '../llm/providers';
import { createProvider } from '../llm/registry';
import type { ModelInfo, Provider, ToolDefinition } from '../llm/types';
import { convertToLlm } from '../session/convert';
import type { SessionStore } from '../session/store';
import type { ApprovalMode } from '../core/approval-modes';
import type { AgentSessionDeps } from './agent-session-types';
import type { AgentEvent } from './events';
import { instructionFilesIn, NestedInstructions } from './instructions/nested-instructions';
import { ProjectInstructions } from './instructions/project-instructions';
import { buildSystemPrompt, describeOs, type SystemPromptInput } from './system-prompt';
import type { ToolCallEnvironment } from './tool-calls';
import { toolDefinitions, type AgentTool } from './tools';

/**
 * What the session's helpers (these inputs, the turn loop, pending changes, the compaction wiring, idle
 * maintenance) read from it: its current store and model, its clock, its events, its persisting.
 */
export interface SessionCoreHost {
  store(): SessionStore;
  model(): ModelInfo;
  now(): number;
  emit(event: AgentEvent): void;
  persist(message: AgentMessage): Promise<string>;
}

export class TurnInputs {
  private readonly providers = new Map<string, Provider>();
  private lastSystemPrompt = '';
  private ownInstructions: ProjectInstructions | undefined;
  /** the offered tools the last system prompt listed */
  private promptTools: readonly AgentTool[] = [];
  /** the offered tools last measured by fixedOverheadTokens, and their definitions' length */
  private measuredTools: { tools: readonly AgentTool[]; chars: number } = { tools: [], chars: 2 };

  constructor(
    private readonly deps: AgentSessionDeps,
    private readonly host: SessionCoreHost,
    /** the session's approval mode, read at every request and tool call */
    readonly mode: () => ApprovalMode = () => 'ask',
  ) {}

  /** True once a system prompt was resolved (the meter counts it from then on). */
  get hasSystemPrompt(): boolean {
    return this.lastSystemPrompt !== '';
  }

  /** A model can be used when it has a key, or its wire needs none (local, VS Code's, demo). */
  async usable(model: ModelInfo): Promise<boolean> {
    if (sameModel(model, this.host.model()) || providerForApi(model.api)?.key !== 'required') return true;
    return Boolean(await this.deps.keys.getKey(model.provider));
  }

  /** Tokens of the system prompt and the tool definitions (estimated). */
  fixedOverheadTokens(): number {
    const tools = this.offeredTools();
    if (!sameList(tools, this.measuredTools.tools, (x, y) => x === y)) this.measuredTools = { tools, chars: JSON.stringify(toolDefinitions(tools)).length };
    return Math.ceil((this.lastSystemPrompt.length + this.measuredTools.chars) / 4);
  }

  settings(): CompactionSettings {
    return this.deps.compaction?.settings?.() ?? DEFAULT_COMPACTION_SETTINGS;
  }

  trusted(): boolean {
    return typeof this.deps.trusted === 'function' ? this.deps.trusted() : this.deps.trusted;
  }

  estimate(message: AgentMessage): number {
    return (this.deps.compaction?.estimator ?? estimateTokens)(message);
  }

  /**
   * Tools the model is told about, read from the live list at each request: refused ones (restricted
   * mode, Plan mode, "deny" settings) are not offered.
   */
  offeredTools(): AgentTool[] {
    const context = { trusted: this.trusted(), mode: this.mode() };
    return this.deps.tools.list().filter((tool) => this.deps.approval.disabledReason(tool, context) === undefined);
  }

  toolEnvironment(): ToolCallEnvironment {
    return {
      tools: this.deps.tools,
      approval: this.deps.approval,
      prompter: this.deps.prompter,
      workspace: this.deps.workspace,
      trusted: this.trusted(),
      mode: () => this.mode(),
      ...(this.deps.toolLimits ? { limits: this.deps.toolLimits } : {}),
      ...(this.deps.approvalPreview ? { approvalPreview: this.deps.approvalPreview } : {}),
      ...(this.deps.protectedDirectories ? { protectedDirectories: this.deps.protectedDirectories() } : {}),
      now: () => this.host.now(),
      emit: (event) => this.host.emit(event),
      persist: (result) => this.host.persist(result),
      ...(this.deps.checkpoints ? { checkpoints: this.deps.checkpoints } : {}),
      ...(this.deps.editFeedback ? { editFeedback: this.deps.editFeedback } : {}),
      nestedInstructions: new NestedInstructions(this.deps.workspace, () => instructionFilesIn(this.host.store().buildContext().messages)),
    };
  }

  /** The host's instruction files and skills; without one, the workspace folders' AGENTS.md only. */
  instructions(): ProjectInstructions {
    this.ownInstructions ??= this.deps.instructions ?? new ProjectInstructions({ workspace: this.deps.workspace, skills: false, userFiles: false });
    return this.ownInstructions;
  }

  /** The system prompt for `tools` (the offered tools of the request it is for), its instructions re-read. */
  async resolveSystemPrompt(tools: readonly AgentTool[] = this.offeredTools()): Promise<string> {
    const source = this.deps.systemPrompt;
    if (typeof source === 'string') return (this.lastSystemPrompt = source);
    this.promptTools = tools;
    const instructions = this.instructions();
    const snapshot = await instructions.refresh().catch(() => instructions.current());
    const agentsMd = instructions.promptText(snapshot);
    const skills = snapshot.skills.filter((skill) => !skill.hidden).map(({ name, description }) => ({ name, description }));
    const input: SystemPromptInput = {
      workspaceFolders: this.deps.workspace.folders,
      os: describeOs(),
      date: new Date(this.host.now()),
      restricted: !this.trusted(),
      plan: this.mode() === 'plan',
      tools,
      ...(agentsMd ? { agentsMd } : {}),
      ...(skills.length > 0 ? { skills } : {}),
    };
    this.lastSystemPrompt = source ? await source(input) : buildSystemPrompt(input);
    return this.lastSystemPrompt;
  }

  /**
   * The system prompt for a later request of a run offering `tools`: the one resolved at its start, rebuilt
   * when the offered tools changed since (a tool came or went, the approval mode changed), so the prompt's
   * tool list always matches the request's tool definitions.
   */
  async systemPromptForRequest(tools: readonly AgentTool[]): Promise<string> {
    if (typeof this.deps.systemPrompt === 'string' || sameList(tools, this.promptTools, listedAlike)) return this.lastSystemPrompt;
    return this.resolveSystemPrompt(tools);
  }

  providerFor(model: ModelInfo): Provider {
    const key = `${model.provider}/${model.id}/${model.baseUrl ?? ''}`;
    let provider = this.providers.get(key);
    if (!provider) {
      provider = this.deps.providerFactory
        ? this.deps.providerFactory(model, this.deps.keys)
        : createProvider(model, this.deps.keys, this.deps.providerOptions);
      this.providers.set(key, provider);
    }
    return provider;
  }

  /** What the model saw last (system prompt, tools) with the current messages: the handoff reuses it. */
  liveContext(): { systemPrompt: string; messages: LlmMessage[]; tools?: ToolDefinition[] } {
    const tools = this.offeredTools();
    return {
      systemPrompt: this.lastSystemPrompt,
      messages: convertToLlm(this.host.store().buildContext().messages),
      ...(tools.length > 0 ? { tools: toolDefinitions(tools) } : {}),
    };
  }
}

/** The same tools in the same order by `same` (compared, never serialized). */
function sameList(a: readonly AgentTool[], b: readonly AgentTool[], same: (x: AgentTool, y: AgentTool) => boolean): boolean {
  return a.length === b.length && a.every((tool, i) => same(tool, b[i]!));
}

/** What the system prompt lists of a tool: its name and description. */
function listedAlike(x: AgentTool, y: AgentTool): boolean {
  return x === y || (x.name === y.name && x.description === y.description);
}
