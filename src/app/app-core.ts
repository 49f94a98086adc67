// The application's core: the single owner of the current session and its agent, and of the parts that
// act on them (the open session with its switches, the model choice, the tree actions, file checkpoints).
// Every UI goes through ArborApp (arbor-app.ts), which is this core plus what the UIs read (app-reads.ts)
// and what they do (arbor-app.ts); here are the wiring, the change events, the open session's state and
// the guards that refuse an action when no session is open. No `vscode` import (see arbor-app.ts).
import { ApprovalPolicy } from '../agent/approval';
import type { AgentSession } from '../agent/agent-session';
import { createTools, workspaceFromPaths, type WorkspaceRoots } from '../agent/tools';
import { ToolRegistry } from '../agent/tools/tool-registry';
import { TreeNavigationHookRegistry } from '../branch';
import { CompactionHookRegistry } from '../compaction';
import { modelKey } from '../llm/models';
import type { ModelInfo } from '../llm/types';
import type { SessionEntry } from '../session/entries';
import type { SessionStore } from '../session/store';
import { SessionSummaryCache } from '../session/summary-cache';
import { branchSummarizer } from './agent-factory';
import { ArborAppError, modelView, type AppChange, type ArborAppDeps, type Disposable } from './app-types';
import { CheckpointService } from './checkpoint-service';
import { ModelChoice } from './model-choice';
import { OpenSession } from './open-session';
import type { SessionViews } from './session-views';
import { TreeActions } from './tree-actions';

export abstract class AppCore implements Disposable {
  readonly compactionHooks: CompactionHookRegistry;
  readonly navigationHooks: TreeNavigationHookRegistry;
  readonly workspace: WorkspaceRoots;
  readonly cwd: string;
  /** file checkpoints: capture during turns, restore with branch switches */
  readonly checkpoints: CheckpointService;

  protected readonly open: OpenSession;
  protected readonly policy: ApprovalPolicy;
  /** the live tool list (shared by every chat of the host) */
  readonly tools: ToolRegistry;
  private readonly listeners = new Set<(change: AppChange) => void>();
  protected readonly models: ModelChoice;
  protected readonly treeActions: TreeActions;
  /** the Sessions list after a turn reads only what changed (see SessionSummaryCache) */
  protected readonly sessionSummaries = new SessionSummaryCache();
  /** compaction reasons seen in this process, by compaction entry id (the file does not store them) */
  private readonly compactionReasons = new Map<string, string>();
  protected disposed = false;

  constructor(protected readonly deps: ArborAppDeps) {
    const log = (message: string) => deps.log?.warn(message);
    this.compactionHooks = deps.compactionHooks ?? new CompactionHookRegistry(log);
    this.navigationHooks = deps.navigationHooks ?? new TreeNavigationHookRegistry(log);
    this.workspace = workspaceFromPaths(deps.workspaceRoots);
    this.cwd = deps.workspaceRoots[0] ?? process.cwd();
    this.policy = new ApprovalPolicy({ settings: deps.settings().approval });
    this.tools = deps.tools ?? new ToolRegistry(createTools());
    this.models = new ModelChoice({ settings: deps.settings, keys: deps.keys, ...(deps.log ? { log: deps.log } : {}), agent: () => this.agent });
    this.checkpoints = deps.checkpoints ?? new CheckpointService({
      sessionsDir: deps.sessionsDir,
      journalsDir: deps.journalsDir,
      workspace: this.workspace,
      settings: () => deps.settings().checkpoints,
      trusted: deps.trusted,
      log: (message) => deps.log?.info(message),
    });
    this.open = new OpenSession({
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
      cancelNavigation: () => this.treeActions.cancelNavigation(),
    });
    this.treeActions = new TreeActions({
      store: () => this.requireStore(),
      entry: (entryId) => this.requireEntry(entryId),
      agent: () => this.agent,
      checkpoints: this.checkpoints,
      hooks: this.navigationHooks,
      summarizer: () => branchSummarizer(this.deps, this.currentModel),
      syncLeaf: () => this.views?.syncLeaf(),
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
    return this.open.store;
  }

  protected get agent(): AgentSession | undefined {
    return this.open.agent;
  }

  protected get views(): SessionViews | undefined {
    return this.open.views;
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

  get currentModel(): ModelInfo {
    return this.models.current;
  }

  /** the current model as `provider/id` */
  get currentModelKey(): string {
    return modelKey(this.models.current);
  }

  get currentThinkingLevel(): string {
    return this.models.currentThinkingLevel;
  }

  // ---- guards -------------------------------------------------------------------------------------

  protected requireStore(): SessionStore {
    if (!this.store) throw new ArborAppError('No session is open.');
    return this.store;
  }

  protected requireViews(): SessionViews {
    this.requireStore();
    return this.views!;
  }

  protected requireAgent(): AgentSession {
    this.requireStore();
    return this.agent!;
  }

  protected requireEntry(entryId: string): SessionEntry {
    const entry = this.requireStore().getEntry(entryId);
    if (!entry) throw new ArborAppError(`Unknown entry "${entryId}".`);
    return entry;
  }

  protected emitSettings(): void {
    this.emit({ kind: 'settings', model: modelView(this.currentModel), thinkingLevel: this.currentThinkingLevel });
  }

  dispose(): void {
    this.disposed = true;
    this.checkpoints.close();
    this.treeActions.cancelNavigation();
    this.open.detach();
    this.listeners.clear();
  }
}
