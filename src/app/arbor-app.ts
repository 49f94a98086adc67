// The application controller: the single owner of the current session and its agent. Every UI (chat
// webview, Session Tree, commands, status bar) goes through this object; none of them holds a
// SessionStore or an AgentSession of its own. No `vscode` import: the host passes small adapters in
// (keys, leaf memory, approval prompter, settings, trust, log), and the whole thing is unit-tested in Node.
// This file is what the UIs do (sessions, prompting and slash commands, compaction, model and settings);
// what they read is app-reads.ts, the wiring, events and state app-core.ts. Its other parts live beside it:
// the types (app-types.ts), the session's views (session-views.ts), the model choice (model-choice.ts), the
// open session with its switches (open-session.ts), and the tree actions (tree-actions.ts), which the UIs
// call as the member `app.tree` (nothing forwarded here). Refusals are returned typed (app-outcome.ts).
import type { QueuedPrompt } from '../agent/agent-session';
import type { CarryResult } from '../branch';
import { CompactionNotDone, skipped, type CompactionOutcome, type CompactionPreparation, type CompactionPreview } from '../compaction';
import type { ModelInfo } from '../llm/types';
import { takesImages } from '../llm/image-input';
import type { ImageContent } from '../core/messages';
import type { ApprovalMode } from '../core/approval-modes';
import { renderPrompt } from '../core/prompts';
import type { SessionStore } from '../session/store';
import type { StageOutcome } from '../branch/stage';
import type { PinOutcome } from './pin-entry';
import { done, mapDone, refused, type AppOutcome, type AppRefusal } from './app-outcome';
import {
  type AppNavigateResult,
  type CompactAppOptions,
  type CompactReview,
  type InsertSummaryOptions,
  type ModelView,
  type NavigateAppOptions,
  type PromptOutcome,
  type SessionView,
} from './app-types';
import { AppReads } from './app-reads';
import type { FilesRestoreResult, SwitchFilesPreview } from './checkpoint-service';
import { parseSlashCommand } from './slash-commands';

export * from './app-types';
export * from './app-outcome';

export class ArborApp extends AppReads {
  // ---- sessions -----------------------------------------------------------------------------------

  /** Starts an empty session (its file is written with the first message). A running turn is stopped. */
  newSession(): Promise<SessionView> {
    return this.open.newSession();
  }

  /** Opens a session file (Arbor's or pi's). A running turn is stopped. */
  openSession(file: string): Promise<SessionView> {
    return this.open.openSession(file);
  }

  /** Copies the path to `leafId` (default: the leaf) into a new session file and switches to it. */
  async forkBranch(leafId?: string): Promise<AppOutcome<SessionView>> {
    const store = this.store;
    const target = leafId ?? store?.getLeafId() ?? null;
    if (!store || target === null) return refused('nothing-to-fork');
    if (!store.getEntry(target)) return refused('unknown-entry', `Unknown entry "${target}".`);
    return done(await this.open.forkBranch(store, target));
  }

  /** Names the open session (a `session_info` entry; empty clears the name). */
  async renameSession(name: string): Promise<AppOutcome> {
    if (!this.store) return refused('no-session');
    await this.store.appendSessionInfo(name.trim());
    return done();
  }

  private async ensureSession(): Promise<SessionStore> {
    if (this.store) return this.store;
    await this.newSession();
    return this.store!;
  }

  // ---- prompting ----------------------------------------------------------------------------------

  /**
   * Sends a prompt (creating a session first when there is none) or runs a slash command. Resolves when
   * the turn is over (or at once when the message was queued behind a running turn).
   */
  async prompt(text: string, images: readonly ImageContent[] = []): Promise<PromptOutcome> {
    if (this.disposed) return { kind: 'error', message: 'Arbor is shutting down.' };
    if (text.trim() === '' && images.length === 0) return { kind: 'empty' };
    if (images.length > 0 && !takesImages(this.currentModel)) return { kind: 'imagesUnsupported', model: this.currentModel.name };
    const command = images.length === 0 ? parseSlashCommand(text) : undefined;
    if (command) {
      try {
        switch (command.name) {
          case 'compact':
            return { kind: 'compacted', outcome: await this.compact(command.args || undefined) };
          case 'handoff':
            return { kind: 'compacted', outcome: await this.compact(command.args || undefined, undefined, { handoff: true }) };
          case 'new':
            return { kind: 'newSession', session: await this.newSession() };
          case 'tree':
            return { kind: 'intent', intent: 'showTree' };
          case 'model': {
            if (!command.args) return { kind: 'intent', intent: 'pickModel' };
            const changed = await this.setModel(command.args);
            return changed.kind === 'refused' ? changed : { kind: 'modelChanged', model: changed.value };
          }
        }
      } catch (error) {
        if (error instanceof CompactionNotDone && error.outcome.status === 'skipped') return refused('not-compacted', error.outcome.message);
        this.deps.log?.error(`/${command.name} failed: ${(error as Error)?.stack ?? String(error)}`);
        return { kind: 'error', message: (error as Error).message };
      }
    }
    await this.open.whenSwitched();
    await this.ensureSession();
    const agent = this.agent!;
    const queued = agent.busy;
    await agent.prompt(text, images);
    return { kind: queued ? 'queued' : 'sent' };
  }

  /** Stops the running turn (or compaction). Returns the queued messages that were not sent. */
  async stop(): Promise<QueuedPrompt[]> {
    this.tree.cancelNavigation();
    return (await this.agent?.stop()) ?? [];
  }

  /** The user is typing: the idle timer (automatic compaction when idle) waits. */
  notifyUserTyping(): void {
    this.agent?.notifyUserTyping();
  }

  /** Continues a reply cut off by the output limit. */
  async continueReply(): Promise<void> {
    await this.agent?.continueReply();
  }

  /** Removes a queued message (the user took it back). */
  dequeue(index: number): QueuedPrompt | undefined {
    return this.agent?.dequeue(index);
  }

  // ---- compaction ---------------------------------------------------------------------------------

  /**
   * Manual compaction; throws with a user-facing message when skipped, cancelled or failed. With
   * `keepFrom` the cut is the user's (the outcome's `cut` says whether it had to move back).
   */
  async compact(customInstructions?: string, review?: CompactReview, options: CompactAppOptions = {}): Promise<CompactionOutcome> {
    const agent = this.agent;
    if (!agent) throw new CompactionNotDone(skipped('nothing-to-compact'));
    if (options.keepFrom !== undefined) {
      // The path is about to change under a running turn; the user picked the cut on what they saw.
      if (agent.compacting) throw new CompactionNotDone(skipped('busy'));
      if (agent.busy) throw new CompactionNotDone(skipped('turn-running'));
    }
    return agent.compact(customInstructions, {
      ...(review ? { review } : {}),
      ...(options.keepFrom !== undefined ? { keepFrom: options.keepFrom } : {}),
      ...(options.handoff ? { handoff: true } : {}),
    });
  }

  cancelCompaction(): boolean {
    return this.agent?.cancelCompaction() ?? false;
  }

  /** What a manual compaction would do now, without calling a model; undefined when nothing to compact. */
  previewCompaction(): CompactionPreview | undefined {
    return this.agent?.compactionRunner.preview();
  }

  /** The preview of a cut the user chose, with the same estimator and overhead as the marker and meter. */
  previewCompactionOf(preparation: CompactionPreparation): CompactionPreview | undefined {
    return this.agent?.compactionRunner.previewOf(preparation);
  }

  // ---- tree: `app.tree` (TreeActions) itself, not forwarded here ------------------------------------

  // ---- model and thinking level -----------------------------------------------------------------------

  /** Switches the model ("provider/id" or a bare id); persisted in the session when one is open. */
  async setModel(key: string): Promise<AppOutcome<ModelView>> {
    const outcome = await this.models.set(key);
    if (outcome.kind === 'done') this.emitSettings();
    return outcome;
  }

  async setThinkingLevel(level: string): Promise<AppOutcome> {
    const outcome = await this.models.setThinkingLevel(level);
    if (outcome.kind === 'done') this.emitSettings();
    return outcome;
  }

  /**
   * Switches the approval mode: applies to the next tool call and request, is recorded in the session (so
   * reopening it restores the mode) and is the mode of the chat's next new session.
   */
  async setApprovalMode(mode: ApprovalMode): Promise<void> {
    if (mode === this.approvalMode && mode === this.chatMode) return;
    this.chatMode = mode;
    // one change for the UIs: the agent tells it (approval_mode_changed); without a session, the settings do
    if (this.agent) await this.agent.setApprovalMode(mode);
    else this.emitSettings();
  }

  /**
   * "Run this plan": leaves Plan mode for `mode` (Ask or Auto-edit) and asks the agent to carry the plan out.
   * Refused while the agent works, and when there is no finished plan to run (the rule: plan-ready.ts).
   */
  async runPlan(mode: Exclude<ApprovalMode, 'plan'>): Promise<PromptOutcome> {
    if (this.busy) return refused('busy');
    if (!this.planReady) return refused('no-plan');
    await this.setApprovalMode(mode);
    return this.prompt(renderPrompt('plan/run-plan').trim());
  }

  /** The model to use when none was chosen (see ModelChoice.resolveDefault). */
  resolveDefaultModel(): Promise<ModelInfo> {
    return this.models.resolveDefault();
  }

  /** Applies the configuration (at start and on every change); no reload needed. */
  async applySettings(): Promise<void> {
    const settings = this.deps.settings();
    this.policy.updateSettings(settings.approval);
    await this.models.applySettings(settings);
    // idleEnabled / idleTimeoutSeconds apply now, not only after the next turn.
    this.agent?.settingsChanged();
    this.emitSettings();
  }
}
