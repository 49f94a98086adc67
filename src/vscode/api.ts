// What `activate` returns: the extension API. Other extensions use the hook registries (compaction and
// tree navigation); integration tests also observe the views and drive the app. Typed, so importing
// extensions can declare what they rely on.
import type { ArborApp } from '../app/arbor-app';
import type { ArborChats } from '../app/chats';
import type { TreeNavigationHookRegistry } from '../branch/hooks';
import type { CompactionHookRegistry } from '../compaction/hooks';
import type { ChatApprovalPrompter } from './approval-prompter';
import type { ChatPanels } from './chat-panels';
import type { ChatViewProvider } from './chat-view';
import type { ArborConfig } from './settings/arbor-settings';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { SecretKeys } from './secrets';
import type { SessionTreeProvider } from './tree/session-tree-provider';
import type { ConversationTreeTabs } from './tree-tabs';

export interface ArborApi {
  /** how long activate() took in this extension host (ms), also in the log's activation line */
  readonly activationMs: number;
  /** hooks around compaction: beforeCompact / compacting / compact (see src/compaction/hooks.ts) */
  readonly compactionHooks: CompactionHookRegistry;
  /** hooks around tree navigation: beforeTreeNavigation / afterNavigation (see src/branch/hooks.ts) */
  readonly navigationHooks: TreeNavigationHookRegistry;
  /** the side bar's chat: the application controller of its session (agent, snapshots) */
  readonly app: ArborApp;
  /** every open chat (side bar and editor tabs) and which one is focused */
  readonly chats: ArborChats;
  /** the chats in editor tabs */
  readonly chatPanels: ChatPanels;
  /** the Conversation Tree editor tabs */
  readonly treeTabs: ConversationTreeTabs;
  /** pending tool approvals: list() and answer(toolCallId, answer) */
  readonly approvals: Pick<ChatApprovalPrompter, 'list' | 'answer' | 'onDidRequest'>;
  /** whether a key is stored for a provider (the key itself is never exposed) */
  hasApiKey(provider: string): Promise<boolean>;
  readonly chatView: ChatViewProvider;
  readonly sessionTree: SessionTreeProvider;
  /** @internal tests */
  readonly config: Pick<ArborConfig, 'settings' | 'reload'>;
  /** the live tool list (built-ins, the editor's tools, VS Code's tools the user chose) */
  readonly tools: Pick<ToolRegistry, 'list' | 'get'>;
}

export type { SecretKeys };
