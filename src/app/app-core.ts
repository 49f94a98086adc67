// The application's core: the single owner of the current session and its agent, and of the parts that
// act on them (the open session with its switches, the model choice, the tree actions, file checkpoints).
// The UIs call those parts as members (`app.session`, `app.views`, `app.models`, `app.tree`, `app.compaction`,
// `app.checkpoints`: the
// ChatParts of chat-parts.ts), nothing forwards them; ArborApp (arbor-app.ts) adds prompting and compaction,
// app-reads.ts what the UIs read. Here are the wiring, the change events, the open session's state and
// what every action needs. An action that cannot run now returns a typed refusal (app-outcome.ts). No `vscode`
// import (see arbor-app.ts).
import { ApprovalPolicy } from '../agent/approval';
import type { AgentSession } from '../agent/agent-session';
import { createTools, workspaceFromPaths, type WorkspaceRoots } from '../agent/tools';
import { ToolRegistry } from '../agent/tools/tool-registry';
import { TreeNavigationHookRegistry } from '../branch';
import { CompactionHookRegistry } from '../compaction';
import type { ApprovalMode } from '../core/approval-modes';
import type { SessionStore } from '../session/store';
import { branchSummarizer } from './agent-factory';
import { modelView, type AppChange, type ArborAppDeps, type Disposable } from './app-types';
import { CheckpointService } from './checkpoint-service';
import { CompactionActions } from './compaction-actions';
import { ModelChoice } from './model-choice';
import { OpenSession } from './open-session';
import { NO_SESSION_VIEWS, type SessionViewsApi } from './session-views';
import { TreeActions } from './tree-actions';

export abstract class AppCore implements Disposable {
  readonly compactionHooks: CompactionHookRegistry;
  readonly navigationHooks: TreeNavigationHookRegistry;
  readonly workspace: WorkspaceRoots;
  readonly cwd: string;
  /** file checkpoints: capture during turns, restore with branch switches */
  readonly checkpoints: CheckpointService;

  /** the open session: new, open, fork, rename and what it is (open-session.ts), called as `app.session` */
  readonly session: OpenSession;
  protected readonly policy: ApprovalPolicy;
  /** the live tool list (shared by every chat of the host) */
  readonly tools: ToolRegistry;
  private readonly listeners = new Set<(change: AppChange) => void>();
  /** which model and thinking level the chat uses (model-choice.ts), called as `app.models` */
  readonly models: ModelChoice;
  /** what the UIs do to the open session's tree: switch, branch, label, pin, summarize, carry (tree-actions.ts) */
  readonly tree: TreeActions;
  /** manual compaction of the open session (compaction-actions.ts), called as `app.compaction` */
  readonly compaction: CompactionActions;
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  private readonly compactionReasons = new Map<string, string>();
  protected disposed = false;
  /** the chat's approval mode while no session is open, and the mode a new session starts in */
  protected chatMode: ApprovalMode = 'ask';

  constructor(protected readonly deps: ArborAppDeps) {
    const log = (message: string) => deps.log?.warn(message);
    this.compactionHooks = deps.compactionHooks ?? new CompactionHookRegistry(log);
    this.navigationHooks = deps.navigationHooks ?? new TreeNavigationHookRegistry(log);
    this.workspace = workspaceFromPaths(deps.workspaceRoots);
    this.cwd = deps.workspaceRoots[0] ?? process.cwd();
    this.policy = new ApprovalPolicy({ settings: deps.settings().approval });
    this.tools = deps.tools ?? new ToolRegistry(createTools());
    this.models = new ModelChoice({ settings: deps.settings, keys: deps.keys, ...(deps.log ? { log: deps.log } : {}), agent: () => this.agent, changed: () => this.emitSettings() });
    this.checkpoints = deps.checkpoints ?? new CheckpointService({
      sessionsDir: deps.sessionsDir,
      journalsDir: deps.journalsDir,
      workspace: this.workspace,
      settings: () => deps.settings().checkpoints,
      trusted: deps.trusted,
      log: (message) => deps.log?.info(message),
    });
    this.session = new OpenSession({
      deps,
      cwd: this.cwd,
      policy: this.policy,
      tools: this.tools,
      workspace: this.workspace,
      compactionHooks: this.compactionHooks,
      checkpoints: this.checkpoints,
      models: this.models,
      compactionReasons: this.compactionReasons,
      emit: (change) => this.emit(change),
      emitSettings: () => this.emitSettings(),
      chatMode: () => this.chatMode,
      cancelNavigation: () => this.tree.cancelNavigation(),
    });
    this.compaction = new CompactionActions(() => this.agent);
    this.tree = new TreeActions({
      store: () => this.store,
      agent: () => this.agent,
      checkpoints: this.checkpoints,
      hooks: this.navigationHooks,
      summarizer: () => branchSummarizer(this.deps, this.models.current),
      syncLeaf: () => this.session.views?.syncLeaf(),
      emit: (change) => this.emit(change),
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  // ---- events -------------------------------------------------------------------------------------

  onDidChange(listener: (change: AppChange) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  protected emit(change: AppChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.deps.log?.error(`app listener failed: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
  }

  // ---- state --------------------------------------------------------------------------------------

  protected get store(): SessionStore | undefined {
    return this.session.store;
  }

  protected get agent(): AgentSession | undefined {
    return this.session.agent;
  }

  /** what the UIs read of the open session (session-views.ts): its conversation, tree nodes, totals */
  get views(): SessionViewsApi {
    return this.session.views ?? NO_SESSION_VIEWS;
  }

  get currentStore(): SessionStore | undefined {
    return this.store;
  }

  get currentAgent(): AgentSession | undefined {
    return this.agent;
  }

  get busy(): boolean {
    return this.agent?.busy ?? false;
  }

  /** A compaction is running (manual, automatic or a handoff). */
  get compacting(): boolean {
    return this.agent?.compacting ?? false;
  }

  /** The open session's leaf (null: none open, or nothing written yet). */
  get leafId(): string | null {
    return this.store?.getLeafId() ?? null;
  }

  /** Ask, Auto-edit or Plan: the open session's (recorded in it), else the chat's. */
  get approvalMode(): ApprovalMode {
    return this.agent?.mode ?? this.chatMode;
  }

  protected emitSettings(): void {
    this.emit({ kind: 'settings', model: modelView(this.models.current), thinkingLevel: this.models.currentThinkingLevel });
  }

  dispose(): void {
    this.disposed = true;
    this.checkpoints.close();
    this.tree.cancelNavigation();
    this.session.detach();
    this.listeners.clear();
  }
}
