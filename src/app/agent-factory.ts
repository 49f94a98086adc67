// How the app builds what a session runs on: the agent of a session it opens (from its deps and the parts
// every session of the chat shares: tools, approval policy, hooks, checkpoints) and the summarizer of
// branch summaries (the configured summarizer model, else the chat's current one).
import type { ApprovalPolicy } from '../agent/approval';
import { AgentSession } from '../agent/agent-session';
import type { WorkspaceRoots } from '../agent/tools';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { BranchSummarizerDeps } from '../branch';
import type { CompactionHookRegistry } from '../compaction';
import { findModel } from '../llm/models';
import { createProvider } from '../llm/registry';
import type { ModelInfo } from '../llm/types';
import type { SessionStore } from '../session/store';
import type { ApprovalMode } from '../core/approval-modes';
import { previewFileChange } from './approval-preview';
import type { ArborAppDeps } from './app-types';
import type { CheckpointService } from './checkpoint-service';

export interface AgentParts {
  deps: ArborAppDeps;
  model: ModelInfo;
  tools: ToolRegistry;
  policy: ApprovalPolicy;
  workspace: WorkspaceRoots;
  compactionHooks: CompactionHookRegistry;
  checkpoints: CheckpointService;
  /** the mode of a new (empty) session: the one the chat shows */
  approvalMode: ApprovalMode;
}

export function createAgent(store: SessionStore, parts: AgentParts): AgentSession {
  const { deps } = parts;
  return new AgentSession({
    store,
    model: parts.model,
    availableModels: () => deps.settings().models,
    keys: deps.keys,
    ...(deps.providerOptions ? { providerOptions: deps.providerOptions } : {}),
    tools: parts.tools,
    approval: parts.policy,
    prompter: deps.prompter,
    approvalPreview: (tool, args) => previewFileChange(tool, args, parts.workspace),
    protectedDirectories: () => [deps.sessionsDir()],
    workspace: parts.workspace,
    ...(deps.instructions ? { instructions: deps.instructions } : {}),
    trusted: () => deps.trusted(),
    approvalMode: parts.approvalMode,
    compaction: {
      ...(deps.compaction ?? {}),
      settings: () => deps.settings().compaction,
      hooks: parts.compactionHooks,
      ...(deps.compactionConfirmer ? { confirmer: deps.compactionConfirmer } : {}),
    },
    log: (message) => deps.log?.info(message),
    checkpoints: parts.checkpoints.recorder(),
    ...(deps.editFeedback ? { editFeedback: deps.editFeedback } : {}),
    ...(deps.agent ?? {}),
  });
}

export function branchSummarizer(deps: Pick<ArborAppDeps, 'settings' | 'keys' | 'providerOptions'>, currentModel: ModelInfo): BranchSummarizerDeps {
  const settings = deps.settings();
  const configured = settings.compaction.summarizerModel ? findModel(settings.models, settings.compaction.summarizerModel) : undefined;
  const model = configured ?? currentModel;
  return {
    model,
    provider: createProvider(model, deps.keys, deps.providerOptions),
    reserveTokens: settings.branchSummary.reserveTokens,
  };
}
