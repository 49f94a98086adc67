// The chat's and the trees' view of one entry, as the entry kinds (./kinds/) build it: plain serialisable
// data, so the app can post it to a webview as is (src/app/view-model.ts adds the tree's node view).
import type { NativeContextNote } from '../core/native-compaction';
import type { KeptWordsView } from '../compaction/user-words-view';

export type ConversationKind = 'user' | 'assistant' | 'toolResult' | 'compaction' | 'branch_summary' | 'custom_message' | 'bash' | 'notice';

export type ViewBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'toolCall'; id: string; name: string; args: Record<string, unknown> }
  /** `data`: base64 as stored (a reference to the entry's string, not a copy) */
  | { type: 'image'; mimeType: string; data: string };

export interface ToolCallView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** the entry holding the result, once there is one on the path */
  resultEntryId?: string;
  isError?: boolean;
}

export interface ConversationEntry {
  id: string;
  parentId: string | null;
  kind: ConversationKind;
  timestamp: string;
  /** plain text (text blocks joined; the summary for compaction/branch summary) */
  text: string;
  blocks: ViewBlock[];
  label?: string;
  /** pinned on the active path (user and assistant messages) */
  pinned?: boolean;
  /** "Summarize from Here" can start here (src/branch/stage.ts, stageStartIds) */
  stageStart?: boolean;
  // assistant
  model?: string;
  provider?: string;
  stopReason?: string;
  errorMessage?: string;
  toolCalls?: ToolCallView[];
  usage?: { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number; cost: number };
  // toolResult
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  /** a call that did not run: denied (by the user or the policy) or skipped (the turn stopped first) */
  toolStatus?: 'denied' | 'skipped' | 'aborted';
  /** a result's image was replaced by a placeholder for this model, which reads no images (pi 1.6) */
  imageNotSentTo?: string;
  /** the assistant entry whose call this answers */
  callEntryId?: string;
  /** an MCP tool's result: its server, its tool and the resources it named (src/mcp/results.ts details) */
  mcp?: { server: string; tool: string; links: { uri: string; name?: string }[] };
  // compaction
  tokensBefore?: number;
  firstKeptEntryId?: string;
  shortSummary?: string;
  readFiles?: string[];
  modifiedFiles?: string[];
  reason?: string;
  fromHook?: boolean;
  /** a provider-native context that replaces the summary for one model (docs/architecture.md "Native compaction") */
  nativeContext?: NativeContextNote;
  /** the user's words the compaction kept (its `details.userWords`, or an older one's `details.constraints`) */
  kept?: KeptWordsView[];
  /** context tokens after the compaction: saved estimate, or measured from the next reply (marker-figures.ts) */
  tokensAfter?: number;
  tokensAfterMeasured?: boolean;
  /** model that wrote the summary (compaction, branch summary) and what its calls cost (USD) */
  summarizer?: string;
  summaryCost?: number;
  // branch summary
  fromId?: string;
  /** a stage summary (Summarize from here): where the originals start and end, and the stage's label */
  stage?: { fromEntryId: string; leafId: string; label?: string };
  // custom message
  customType?: string;
  // bash (a command the user ran, pi's bashExecution)
  command?: string;
  exitCode?: number | null;
  cancelled?: boolean;
  /** what had to be repaired to show the entry (wrong types, odd numbers or ids); reported as 'partly-shown' */
  problems?: string[];
}

export type TreeNodeKind =
  | Exclude<ConversationKind, 'notice'>
  | 'model_change'
  | 'thinking_level_change'
  | 'label'
  | 'custom'
  | 'session_info'
  | 'other';
