// What the UIs read from the app that no single part answers: the snapshot (session, model, mode, busy
// flags, conversation and tree together), usage and the instructions. The open session's
// own views (conversation pages, single entries, tree nodes, totals) are `app.views` itself
// (session-views.ts). Read-only. Part of ArborApp (arbor-app.ts), on top of its core (app-core.ts).
import type { ProjectInstructions } from '../agent/instructions/project-instructions';
import type { UsageInfo } from '../agent/events';
import { modelView, type AppSnapshot, type ConversationOption } from './app-types';
import { AppCore } from './app-core';
import { planReady } from './plan-ready';

export abstract class AppReads extends AppCore {
  /** Whether the chat offers "Run this plan" now (the rule: plan-ready.ts). */
  get planReady(): boolean {
    return planReady({ mode: this.approvalMode, busy: this.busy, session: this.store });
  }

  /** The host's instruction files and skills (shared by every chat), when the app was given them. */
  get instructions(): ProjectInstructions | undefined {
    return this.deps.instructions;
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
    const { views, hasEarlier } = this.views.conversation(options.conversation ?? true);
    return {
      session: this.session.sessionView(),
      leafId: store?.getLeafId() ?? null,
      model: modelView(this.models.current),
      thinkingLevel: this.models.currentThinkingLevel,
      approvalMode: this.approvalMode,
      busy: this.busy,
      compacting: this.compacting,
      navigating: this.tree.navigating,
      queued: [...(this.agent?.queuedMessages ?? [])],
      trusted: this.deps.trusted(),
      usage: this.usage(),
      conversation: views,
      conversationHasEarlier: hasEarlier,
      ...(options.tree === false ? {} : { tree: this.views.treeNodes() }),
    };
  }
}
