// The chat's open session: its store, its agent and its views, attached and detached together, and the
// switches between sessions (new, open, fork, a handoff's new file) run one at a time, and its name. The
// UIs call the session actions as the member `app.session` (SessionActionsApi): nothing forwards them.
import { instructionFilesIn, instructionFilesOf } from '../agent/instructions/nested-instructions';
import type { AgentSession } from '../agent/agent-session';
import type { ApprovalPolicy } from '../agent/approval';
import type { AgentEvent } from '../agent/events';
import type { WorkspaceRoots } from '../agent/tools';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { CompactionHookRegistry } from '../compaction';
import { createSession, forkBranch as forkSessionBranch, listSessions, openSession, type SessionSummary } from '../session/catalog';
import { SessionSummaryCache } from '../session/summary-cache';
import { describeReadOnly, type ReadOnlyReason } from '../session/header';
import type { LeafMemory } from '../session/leaf-memory';
import type { SessionStore } from '../session/store';
import { createAgent } from './agent-factory';
import type { AppChange, ArborAppDeps, SessionView } from './app-types';
import { done, refused, unknownEntry, type AppOutcome } from './app-outcome';
import type { CheckpointService } from './checkpoint-service';
import type { ApprovalMode } from '../core/approval-modes';
import type { ModelChoice } from './model-choice';
import { SessionViews } from './session-views';

/** What the open session needs from the app that owns it. */
export interface OpenSessionHost {
  deps: ArborAppDeps;
  cwd: string;
  policy: ApprovalPolicy;
  tools: ToolRegistry;
  workspace: WorkspaceRoots;
  compactionHooks: CompactionHookRegistry;
  checkpoints: CheckpointService;
  models: ModelChoice;
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  compactionReasons: Map<string, string>;
  emit(change: AppChange): void;
  emitSettings(): void;
  /** the approval mode a new (empty) session starts in: the one the chat shows */
  chatMode(): ApprovalMode;
  /** a running tree navigation is cancelled before a switch */
  cancelNavigation(): void;
}

/** What the UIs use of the open session: its switches, its name and what it is (the rest is the app's wiring). */
export type SessionActionsApi = Pick<OpenSession, 'newSession' | 'openSession' | 'forkBranch' | 'renameSession' | 'sessionView' | 'nestedInstructionFiles' | 'listSessions'>;

export class OpenSession {
  private current: SessionStore | undefined;
  private currentAgent: AgentSession | undefined;
  private currentViews: SessionViews | undefined;
  /** nested instruction files added to this session's tool results (its path at open, then each tool_end) */
  private nestedFiles = new Set<string>();
  private sessionSubscriptions: (() => void)[] = [];
  private switching: Promise<unknown> = Promise.resolve();
  /** the Sessions list after a turn reads only what changed (see SessionSummaryCache) */
  private readonly summaries = new SessionSummaryCache();

  constructor(private readonly host: OpenSessionHost) {}

  get store(): SessionStore | undefined {
    return this.current;
  }

  get agent(): AgentSession | undefined {
    return this.currentAgent;
  }

  get views(): SessionViews | undefined {
    return this.currentViews;
  }

  /** Resolves when the switches asked for so far are done. */
  whenSwitched(): Promise<unknown> {
    return this.switching;
  }

  /** Starts an empty session (its file is written with the first message). A running turn is stopped. */
  async newSession(): Promise<SessionView> {
    return this.serialized(async () => {
      await this.stopForSwitch();
      const store = await createSession({ dir: this.host.deps.sessionsDir(), cwd: this.host.cwd, ...this.leafMemoryOption() });
      await this.attach(store);
      return this.sessionView()!;
    });
  }

  /** Opens a session file (Arbor's or pi's). A running turn is stopped. */
  async openSession(file: string): Promise<SessionView> {
    return this.serialized(async () => {
      if (this.current?.file === file) return this.sessionView()!;
      const store = await openSession(file, this.leafMemoryOption());
      await this.stopForSwitch();
      await this.attach(store);
      return this.sessionView()!;
    });
  }

  /** Copies the path to `leafId` (default: the leaf) into a new session file and switches to it. */
  async forkBranch(leafId?: string): Promise<AppOutcome<SessionView>> {
    const store = this.current;
    const target = leafId ?? store?.getLeafId() ?? null;
    if (!store || target === null) return refused('nothing-to-fork');
    if (!store.getEntry(target)) return unknownEntry(target);
    return done(await this.forkAt(store, target));
  }

  /** Names the open session (a `session_info` entry; empty clears the name). */
  async renameSession(name: string): Promise<AppOutcome> {
    if (!this.current) return refused('no-session');
    await this.current.appendSessionInfo(name.trim());
    return done();
  }

  /** Copies the path to `target` of `store` into a new session file and switches to it. */
  private forkAt(store: SessionStore, target: string): Promise<SessionView> {
    return this.serialized(async () => {
      await this.stopForSwitch();
      const forked = await forkSessionBranch(store, target, { dir: this.host.deps.sessionsDir(), cwd: this.host.cwd, ...this.leafMemoryOption() });
      await this.attach(forked);
      return this.sessionView()!;
    });
  }

  sessionView(): SessionView | null {
    const store = this.current;
    if (!store) return null;
    const name = store.getSessionName();
    return { file: store.file, id: store.header.id, ...(name ? { name } : {}), persisted: store.entryCount > 0 };
  }

  /** Sessions in the sessions directory, newest first. */
  async listSessions(): Promise<SessionSummary[]> {
    const listing = await listSessions(this.host.deps.sessionsDir(), { cache: this.summaries, growing: this.current?.file });
    return listing.sessions;
  }

  private leafMemoryOption(): { leafMemory?: LeafMemory } {
    return this.host.deps.leafMemory ? { leafMemory: this.host.deps.leafMemory } : {};
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.switching.then(task, task);
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async stopForSwitch(): Promise<void> {
    this.host.cancelNavigation();
    if (this.currentAgent?.busy) await this.currentAgent.stop();
  }

  private async attach(store: SessionStore): Promise<void> {
    this.detach();
    this.host.policy.resetSession();
    this.current = store;
    const views = new SessionViews(store, { emit: (change) => this.host.emit(change), sessionView: () => this.sessionView(), compactionReasons: this.host.compactionReasons });
    this.currentViews = views;
    this.sessionSubscriptions.push(
      store.onDidAppend((entry) => views.onAppend(entry)),
      store.onDidReload(() => views.onReload()),
    );
    const agent = createAgent(store, {
      deps: this.host.deps,
      model: this.host.models.forSession(store),
      tools: this.host.tools,
      policy: this.host.policy,
      workspace: this.host.workspace,
      compactionHooks: this.host.compactionHooks,
      checkpoints: this.host.checkpoints,
      approvalMode: this.host.chatMode(),
    });
    // Finish a restore a crash interrupted before this session's first turn (checkpoint-service.ts).
    await this.host.checkpoints.ready();
    this.currentAgent = agent;
    this.nestedFiles = instructionFilesIn(store.buildContext().messages);
    this.sessionSubscriptions.push(agent.onEvent((event) => this.onAgentEvent(event)));
    this.host.emit({ kind: 'session', session: this.sessionView() });
    this.host.emit({ kind: 'conversation', appended: [], reset: true, labels: [] });
    this.host.emitSettings();
    if (store.readOnly) this.announceReadOnly(store.readOnly);
    await this.host.models.startSession(agent, store);
    void agent.primeSystemPrompt().catch((error: unknown) => this.host.deps.log?.warn(`system prompt for the meter: ${(error as Error).message}`));
  }

  /** A newer version's session is shown but never written: say so before the user types into it. */
  private announceReadOnly(readOnly: ReadOnlyReason): void {
    const message = describeReadOnly(readOnly);
    this.host.deps.log?.warn(message);
    this.host.emit({ kind: 'agent', event: { type: 'notice', level: 'warning', message } });
  }

  /** Closes the open session (its agent stops listening and is disposed). */
  detach(): void {
    for (const unsubscribe of this.sessionSubscriptions.splice(0)) unsubscribe();
    this.currentAgent?.dispose();
    this.currentAgent = undefined;
    this.current = undefined;
    this.currentViews = undefined;
  }

  private onAgentEvent(event: AgentEvent): void {
    if (event.type === 'compaction_end' && event.outcome.status === 'compacted') {
      this.host.compactionReasons.set(event.outcome.entry.id, event.reason);
    }
    this.host.emit({ kind: 'agent', event });
    if (event.type === 'usage') this.host.emit({ kind: 'usage', usage: event.usage });
    if (event.type === 'model_changed' || event.type === 'thinking_level_changed' || event.type === 'approval_mode_changed') this.host.emitSettings();
    if (event.type === 'session_replaced') void this.followHandoff(event.file);
    if (event.type === 'tool_end') this.noteNestedFiles(instructionFilesOf(event.result.details));
  }

  /** Nested AGENTS.md files this session's tool results added (workspace-relative), in the order added. */
  nestedInstructionFiles(): string[] {
    return [...this.nestedFiles];
  }

  private noteNestedFiles(files: readonly string[]): void {
    const before = this.nestedFiles.size;
    for (const file of files) this.nestedFiles.add(file);
    if (this.nestedFiles.size !== before) this.host.emitSettings();
  }

  /** The handoff strategy moved the conversation to a new file: follow it. */
  private async followHandoff(file: string): Promise<void> {
    try {
      await this.openSession(file);
    } catch (error) {
      this.host.deps.log?.error(`could not open the handoff session ${file}: ${(error as Error).message}`);
    }
  }
}
