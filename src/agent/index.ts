// Public surface of the agent runtime for the VS Code layer (chat panel wiring).
export { AgentSession, AUTO_CONTINUE_CUSTOM_TYPE } from './agent-session';
export type { AgentSessionDeps, AgentCompactionOptions, CompactOptions } from './agent-session-types';
export type { AgentEvent, AgentEventListener, ApprovalPrompter, ApprovalRequest, MessageDelta, ToolEndStatus, UsageInfo } from './events';
export { SYSTEM_CLOCK, type Clock } from './idle-timer';
export { ApprovalPolicy, parseApprovalSettings, RESTRICTED_MODE_REASON, type ApprovalAnswer, type ApprovalSetting } from './approval';
export { createTools, toolDefinitions, workspaceFromPaths, type AgentTool, type WorkspaceRoots } from './tools';
export {
  DEFER_GROWTH_SHARE,
  deferGrowthTokens,
  type AutoCompactionAnswer,
  type AutoCompactionQuestion,
  type CompactionConfirmer,
  type DeferrableReason,
} from './auto-compaction-confirm';
