// What the UIs read from the app: the session's view model (snapshot, conversation pages, single entries
// and tree nodes, what a compaction summarised), usage and totals, the models to pick from and the
// sessions list. Read-only: every method here answers from the open session's views and agent without
// writing. Part of ArborApp (arbor-app.ts), on top of its core (app-core.ts).
import type { ProjectInstructions } from '../agent/instructions/project-instructions';
import type { UsageInfo } from '../agent/events';
import { listSessions, type SessionSummary } from '../session/catalog';
import {
  modelView,
  type AppSnapshot,
  type ConversationOption,
  type ConversationWindow,
  type EarlierPageRequest,
  type EarlierPageResult,
  type ModelView,
  type SessionView,
} from './app-types';
import { AppCore } from './app-core';
import { refused, type AppOutcome } from './app-outcome';
import { planReady } from './plan-ready';
import type { ConversationEntry, TreeNodeView } from './view-model';

export abstract class AppReads extends AppCore {
  /** Every model the user can pick (built-ins, `arbor.models`, the local server). */
  availableModels(): ModelView[] {
    return this.models.available();
  }

  sessionView(): SessionView | null {
    return this.open.sessionView();
  }

  /** The session's first user message (what the Sessions view shows for an unnamed session). */
  firstUserMessage(): string | undefined {
    return this.views?.firstUserMessage();
  }

  /** Whether the chat offers "Run this plan" now (the rule: plan-ready.ts). */
  get planReady(): boolean {
    return planReady({ mode: this.approvalMode, busy: this.busy, session: this.store });
  }

  /** Nested AGENTS.md files (workspace-relative) the open session's tool results added. */
  nestedInstructionFiles(): string[] {
    return this.open.nestedInstructionFiles();
  }

  /** The host's instruction files and skills (shared by every chat), when the app was given them. */
  get instructions(): ProjectInstructions | undefined {
    return this.deps.instructions;
  }

  /** Cost and tokens of the replies on the active path (kept up to date on appends). */
  branchTotals(): { cost: number; tokens: number } {
    return this.views?.branchTotals() ?? { cost: 0, tokens: 0 };
  }

  usage(): UsageInfo | null {
    return this.agent?.usage() ?? null;
  }

  /**
   * The view model of the session: the conversation on the active path (O(path) views; with
   * `conversation: { last }` only the newest views, O(last)) and, unless `tree: false`, every tree node
   * (O(entries); UIs call this on (re)load and on `reset`, and patch from events otherwise).
   */
  snapshot(options: { tree?: boolean; conversation?: ConversationOption } = {}): AppSnapshot {
    const store = this.store;
    // `conversation: false` (state posts) leaves it empty: building it costs views
    const { views, hasEarlier } = this.views?.conversation(options.conversation ?? true) ?? { views: [], hasEarlier: false };
    return {
      session: this.sessionView(),
      leafId: store?.getLeafId() ?? null,
      model: modelView(this.currentModel),
      thinkingLevel: this.currentThinkingLevel,
      approvalMode: this.approvalMode,
      busy: this.busy,
      compacting: this.compacting,
      navigating: this.tree.navigating,
      queued: [...(this.agent?.queuedMessages ?? [])],
      trusted: this.deps.trusted(),
      usage: this.usage(),
      conversation: views,
      conversationHasEarlier: hasEarlier,
      ...(options.tree === false ? {} : { tree: this.views?.treeNodes() ?? [] }),
    };
  }

  /** The newest `count` views of the active path's conversation (what a chat shows first). */
  conversationTail(count: number): ConversationWindow {
    return this.views?.conversationTail(count) ?? { leafId: null, views: [], hasEarlier: false };
  }

  /** The (at most) `count` views right before `beforeId`; refused with a reason for a stale request. */
  conversationBefore(request: EarlierPageRequest): EarlierPageResult {
    return this.views?.conversationBefore(request) ?? { ok: false, reason: 'no session is open' };
  }

  /** One entry's conversation view (e.g. to reveal it); undefined for unknown or hidden entries. */
  entryView(entryId: string): ConversationEntry | undefined {
    return this.views?.entryView(entryId);
  }

  treeNode(entryId: string): TreeNodeView | undefined {
    return this.views?.treeNode(entryId);
  }

  /** The trees' row of the leaf: the leaf, or the reply above it when it is a file manifest. */
  get treeLeafId(): string | null {
    return this.views?.treeLeafId ?? null;
  }

  /** The views of the messages a compaction summarised (refused for an unknown compaction). */
  summarizedBy(compactionId: string): AppOutcome<ConversationEntry[]> {
    return this.views?.summarizedBy(compactionId) ?? refused('no-session');
  }

  /** Where "Continue from before this compaction" goes (refused for an unknown compaction). */
  entryBeforeCompaction(compactionId: string): AppOutcome<string> {
    return this.views?.entryBeforeCompaction(compactionId) ?? refused('no-session');
  }

  /** Sessions in the sessions directory, newest first. */
  async listSessions(): Promise<SessionSummary[]> {
    const listing = await listSessions(this.deps.sessionsDir(), { cache: this.sessionSummaries, growing: this.store?.file });
    return listing.sessions;
  }
}
