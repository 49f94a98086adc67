// The application controller: the single owner of the current session and its agent. Every UI (chat
// webview, Session Tree, commands, status bar) goes through this object; none of them holds a
// SessionStore or an AgentSession of its own. No `vscode` import: the host passes small adapters in
// (keys, leaf memory, approval prompter, settings, trust, log), and the whole thing is unit-tested in Node.
// This file is what the UIs do that no part of it owns (prompting and slash commands, approval mode,
// settings); what they read is app-reads.ts, the wiring, events and state app-core.ts. Its parts live
// beside it and the UIs call them as members, nothing forwarded here (chat-parts.ts): the open session with
// its switches `app.session` (open-session.ts), the model choice `app.models` (model-choice.ts), the tree
// actions `app.tree` (tree-actions.ts), manual compaction `app.compaction` (compaction-actions.ts), file checkpoints `app.checkpoints` (checkpoint-service.ts). The types
// are app-types.ts, the session's views session-views.ts. Refusals are returned typed (app-outcome.ts).
import type { QueuedPrompt } from '../agent/agent-session';
import { CompactionNotDone } from '../compaction';
import { takesImages } from '../llm/image-input';
import type { ImageContent } from '../core/messages';
import type { ApprovalMode } from '../core/approval-modes';
import { renderPrompt } from '../core/prompts';
import type { SessionStore } from '../session/store';
import { refused } from './app-outcome';
import type { PromptOutcome } from './app-types';
import { AppReads } from './app-reads';
import type { ChatParts } from './chat-parts';
import { parseSlashCommand } from './slash-commands';

export * from './app-types';
export * from './app-outcome';

export class ArborApp extends AppReads implements ChatParts {
  private async ensureSession(): Promise<SessionStore> {
    if (this.store) return this.store;
    await this.session.newSession();
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
    if (images.length > 0 && !takesImages(this.models.current)) return { kind: 'imagesUnsupported', model: this.models.current.name };
    const command = images.length === 0 ? parseSlashCommand(text) : undefined;
    if (command) {
      try {
        switch (command.name) {
          case 'compact':
            return { kind: 'compacted', outcome: await this.compaction.compact(command.args || undefined) };
          case 'handoff':
            return { kind: 'compacted', outcome: await this.compaction.compact(command.args || undefined, { handoff: true }) };
          case 'new':
            return { kind: 'newSession', session: await this.session.newSession() };
          case 'tree':
            return { kind: 'intent', intent: 'showTree' };
          case 'model': {
            if (!command.args) return { kind: 'intent', intent: 'pickModel' };
            const changed = await this.models.set(command.args);
            return changed.kind === 'refused' ? changed : { kind: 'modelChanged', model: changed.value };
          }
        }
      } catch (error) {
        if (error instanceof CompactionNotDone && error.outcome.status === 'skipped') return refused('not-compacted', error.outcome.message);
        this.deps.log?.error(`/${command.name} failed: ${(error as Error)?.stack ?? String(error)}`);
        return { kind: 'error', message: (error as Error).message };
      }
    }
    await this.session.whenSwitched();
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

  // ---- approval mode and settings (the model and thinking level: `app.models` itself) -----------------

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
