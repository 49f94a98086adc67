// What the app does to the open session's tree: switch branches (optionally summarizing the branch being
// left and restoring the files of the new position), branch at an entry, label, carry a branch summary
// across, restore files only. One navigation at a time; a running turn is stopped first. What the user
// may not do now (no session, an unknown entry, the agent busy) comes back as a typed refusal (app-outcome.ts).
import type { AgentSession } from '../agent/agent-session';
import {
  insertBranchSummary as carryBranchSummary,
  navigateTree,
  resolveNavigationTarget,
  type BranchSummarizerDeps,
  type CarryResult,
  type TreeNavigationHookRegistry,
} from '../branch';
import { planStage, stageRefused, summarizeStage, type StageOutcome } from '../branch/stage';
import type { SessionEntry } from '../session/entries';
import type { FileChange } from '../checkpoints';
import { PIN_CUSTOM_TYPE, pinData } from '../session/pins';
import { pinRefusal, type PinOutcome } from './pin-entry';
import { withFilesOf } from './display-tree';
import type { SessionStore } from '../session/store';
import type { AppChange, AppLogger, AppNavigateResult, InsertSummaryOptions, NavigateAppOptions } from './app-types';
import { done, refused, unknownEntry, type AppOutcome, type AppRefusal } from './app-outcome';
import type { CheckpointService, FilesRestoreResult, SwitchFilesPreview } from './checkpoint-service';

export interface TreeActionsDeps {
  /** the open session, if any */
  store(): SessionStore | undefined;
  agent(): AgentSession | undefined;
  checkpoints: CheckpointService;
  hooks: TreeNavigationHookRegistry;
  summarizer(): BranchSummarizerDeps;
  /** the leaf moved without an append: views follow */
  syncLeaf(): void;
  emit(change: AppChange): void;
  log?: AppLogger;
}

/** The public face of TreeActions, for fakes and for the surfaces that use the focused chat's (structural). */
export type TreeActionsApi = { readonly [K in keyof TreeActions]: TreeActions[K] };

export class TreeActions {
  private navigation: AbortController | undefined;
  private navigationSummarizing = false;

  constructor(private readonly deps: TreeActionsDeps) {}

  get navigating(): boolean {
    return this.navigation !== undefined;
  }

  private get busy(): boolean {
    return this.deps.agent()?.busy ?? false;
  }

  /** The open session and one of its entries, or why there is none. */
  private target(entryId: string): { kind: 'found'; store: SessionStore; entry: SessionEntry } | AppRefusal {
    const store = this.deps.store();
    if (!store) return refused('no-session');
    const entry = store.getEntry(entryId);
    return entry ? { kind: 'found', store, entry } : unknownEntry(entryId);
  }

  /**
   * Moves to `targetId` (a running turn is stopped first), optionally summarizing the branch being
   * left. Picking a user message returns its text in `editorText` (edit and resend).
   */
  async navigate(picked: string, options: NavigateAppOptions = {}): Promise<AppOutcome<AppNavigateResult>> {
    const found = this.target(picked);
    if (found.kind === 'refused') return found;
    const { store } = found;
    const targetId = this.withFiles(store, found.entry);
    if (this.navigation) return refused('switch-running');
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();
    this.navigation = controller;
    this.navigationSummarizing = options.summarize === true;
    this.deps.emit({ kind: 'navigation', state: 'start', summarizing: this.navigationSummarizing });
    let restored: FilesRestoreResult | undefined;
    try {
      const agent = this.deps.agent();
      if (agent?.busy) await agent.stop();
      if (options.files) {
        restored = await this.deps.checkpoints.restoreTo(store, this.filesTargetOf(targetId), options.files.overwrite);
        if (restored.kind !== 'restored') return notRestored(restored);
      }
      const result = await navigateTree(
        store,
        targetId,
        {
          ...(options.summarize ? { summarize: true } : {}),
          ...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
          ...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
          ...(options.label !== undefined ? { label: options.label } : {}),
          signal: controller.signal,
        },
        { hooks: this.deps.hooks, ...(options.summarize ? { summarizer: this.deps.summarizer() } : {}) },
      );
      this.deps.syncLeaf();
      if (!result.cancelled) this.deps.agent()?.refreshFromStore(result.summaryEntry ? [result.summaryEntry] : []);
      if (result.cancelled && restored?.kind === 'restored') await this.undoRestore(store, targetId, restored.protectedApplied ?? []);
      return done(restored ? { ...result, files: restored } : result);
    } catch (error) {
      if (restored?.kind === 'restored') await this.undoRestore(store, targetId, restored.protectedApplied ?? []);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.navigation = undefined;
      this.navigationSummarizing = false;
      this.deps.emit({ kind: 'navigation', state: 'end', summarizing: false });
    }
  }

  /**
   * A picked reply means the reply with its files: the leaf goes to the file manifests below it, which
   * have no row of their own (src/app/display-tree.ts). Entries the leaf does not go to (a user message
   * for edit and resend) stay as picked.
   */
  private withFiles(store: SessionStore, entry: SessionEntry): string {
    return resolveNavigationTarget(entry).newLeafId === entry.id ? withFilesOf(store, entry.id) : entry.id;
  }

  /**
   * The node whose files a switch to `targetId` restores: where the leaf goes (a user message: its parent);
   * null for the root, an unknown entry or no session.
   */
  filesTargetOf(targetId: string): string | null {
    const found = this.target(targetId);
    if (found.kind === 'refused') return null;
    const { store } = found;
    const entry = store.getEntry(this.withFiles(store, found.entry));
    const resolved = entry && resolveNavigationTarget(entry);
    return resolved?.newLeafId != null && store.getEntry(resolved.newLeafId) ? resolved.newLeafId : null;
  }

  /** What switching to `targetId` would do to the files (undefined: checkpoints are off, or no session). */
  async previewSwitchFiles(targetId: string): Promise<SwitchFilesPreview | undefined> {
    const store = this.deps.store();
    return store && this.deps.checkpoints.preview(store, store.getLeafId(), this.filesTargetOf(targetId));
  }

  /** What "Restore Files Only" of `entryId` would do to the files (undefined: checkpoints off, or no session). */
  async previewRestoreFiles(entryId: string): Promise<SwitchFilesPreview | undefined> {
    const store = this.deps.store();
    return store && this.deps.checkpoints.preview(store, store.getLeafId(), withFilesOf(store, entryId));
  }

  /** Files that differ between two nodes; a reply's row stands for the reply with its files (display-tree.ts). */
  fileChanges(fromId: string | null, toId: string | null): FileChange[] {
    const store = this.deps.store();
    if (!store) return [];
    return this.deps.checkpoints.diff(store, fromId && withFilesOf(store, fromId), toId && withFilesOf(store, toId));
  }

  /**
   * The navigation did not happen: the files go back to the leaf's state (outside edits stay kept). The
   * protected files the user ticked for the restore are ticked again, so they are put back too.
   */
  private async undoRestore(store: SessionStore, targetId: string, ticked: readonly string[]): Promise<void> {
    const undone = await this.deps.checkpoints.restoreBetween(store, this.filesTargetOf(targetId), store.getLeafId(), new Set(ticked));
    if (undone.kind !== 'restored') this.deps.log?.error(`checkpoints: could not put the files back after a cancelled switch: ${undone.message}`);
  }

  /** "Restore Files Only": the files of `entryId` come back; the conversation stays where it is. */
  async restoreFilesOnly(entryId: string, overwrite: ReadonlySet<string>): Promise<AppOutcome<FilesRestoreResult>> {
    const found = this.target(entryId);
    if (found.kind === 'refused') return found;
    if (this.busy) return refused('busy', 'Wait for the agent to finish (or stop it) before restoring files.');
    return done(await this.deps.checkpoints.restoreFilesOnly(found.store, withFilesOf(found.store, entryId), overwrite));
  }

  /** Cancels a running navigation (its summary); nothing is written. */
  cancelNavigation(): boolean {
    if (!this.navigation) return false;
    this.navigation.abort();
    return true;
  }

  /**
   * "Branch from here": the leaf becomes `entryId` itself, also for a user message (unlike `navigate`,
   * which moves to a user message's parent for edit-and-resend). The next prompt continues right after
   * the entry; what followed it stays in the tree. A running turn is stopped first; no summary.
   */
  async branchAt(entryId: string): Promise<AppOutcome> {
    const found = this.target(entryId);
    if (found.kind === 'refused') return found;
    const { store } = found;
    if (this.navigation) return refused('switch-running');
    const agent = this.deps.agent();
    if (agent?.busy) await agent.stop();
    const leafId = withFilesOf(store, entryId);
    if (store.getLeafId() === leafId) return done();
    store.branch(leafId);
    this.deps.syncLeaf();
    this.deps.agent()?.refreshFromStore();
    return done();
  }

  /** Sets (or with undefined/'' clears) the label of an entry. */
  async label(entryId: string, label: string | undefined): Promise<AppOutcome> {
    const found = this.target(entryId);
    if (found.kind === 'refused') return found;
    if (this.busy) return refused('busy', 'Wait for the agent to finish (or stop it) before labelling.');
    const trimmed = label?.trim();
    await found.store.appendLabelChange(entryId, trimmed ? trimmed : undefined);
    this.deps.agent()?.refreshFromStore();
    return done();
  }

  /**
   * Pins (or unpins) a message of the active path: an `arbor.pin` entry is appended, nothing is deleted,
   * and compactions keep a pinned message verbatim. Refused (typed) for other entries, off the path or
   * while the agent works (the pin would land in the middle of its turn).
   */
  async pin(entryId: string, pinned: boolean): Promise<PinOutcome> {
    const found = this.target(entryId);
    if (found.kind === 'refused') return found;
    const { store } = found;
    const refusal = pinRefusal(store, found.entry, pinned, this.busy);
    if (refusal) return refusal;
    await store.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(entryId, pinned));
    this.deps.agent()?.refreshFromStore();
    return done(pinned ? 'pinned' : 'unpinned');
  }

  /**
   * "Summarize from here": the entries from `entryId` to the leaf become one stage summary on a new branch
   * off the entry's parent (src/branch/stage.ts); the originals stay in the tree. A typed outcome; nothing
   * is written unless it is `summarized`.
   */
  async summarizeFromHere(entryId: string, options: { customInstructions?: string; signal?: AbortSignal } = {}): Promise<StageOutcome | AppRefusal> {
    const found = this.target(entryId);
    if (found.kind === 'refused') return found;
    const { store } = found;
    if (this.busy || this.navigation) return stageRefused('busy');
    const planned = planStage(store.getBranch(), entryId);
    if (planned.status !== 'planned') return planned;
    const label = store.getLabel(entryId);
    const outcome = await summarizeStage(store, planned.plan, {
      summarizer: this.deps.summarizer(),
      ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(label ? { label } : {}),
    });
    if (outcome.status === 'summarized') this.deps.agent()?.refreshFromStore();
    return outcome;
  }

  /** Summarizes the branch ending at `sourceLeafId` into the current position (carry lessons across). */
  async insertBranchSummary(sourceLeafId: string, options: InsertSummaryOptions = {}): Promise<AppOutcome<CarryResult>> {
    const found = this.target(sourceLeafId);
    if (found.kind === 'refused') return found;
    if (this.busy) return refused('busy', 'Wait for the agent to finish (or stop it) before inserting a summary.');
    const result = await carryBranchSummary(found.store, sourceLeafId, {
      summarizer: this.deps.summarizer(),
      ...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
      ...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    this.deps.agent()?.refreshFromStore([result.summaryEntry]);
    return done(result);
  }
}

/** A restore that did not happen ahead of a switch: the switch is refused with what the restore said. */
function notRestored(restored: Exclude<FilesRestoreResult, { kind: 'restored' }>): AppRefusal {
  if (restored.kind === 'refused') return refused('files-not-restored', restored.message);
  return refused('files-not-restored', `The files could not be restored (${restored.message}); ${restored.rolledBack ? 'they are as they were' : 'see the Arbor log'}.`);
}
