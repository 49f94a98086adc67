// Hooks other extensions register around tree navigation (exported from activate() by the VS Code
// layer; payloads follow pi's session_before_tree / session_tree, docs/pi-compatibility.md "Branch summaries"). A hook that throws or rejects
// is logged and counts as "no opinion": hooks can change a navigation, never break it.
import type { BranchSummaryEntry, SessionEntry } from '../session/entries';

export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  /** abandoned entries, oldest first */
  entriesToSummarize: readonly SessionEntry[];
  userWantsSummary: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface BeforeTreeNavigationEvent {
  preparation: TreePreparation;
  /** aborted when the user cancels the navigation */
  signal: AbortSignal;
}

export interface HookSummary {
  summary: string;
  details?: unknown;
}

export interface BeforeTreeNavigationResult {
  /** stop the navigation; nothing is written and the leaf stays */
  cancel?: boolean;
  /** use this summary instead of generating one (only when the user asked for a summary; stored with fromHook) */
  summary?: HookSummary;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface AfterNavigationEvent {
  newLeafId: string | null;
  oldLeafId: string | null;
  summaryEntry?: BranchSummaryEntry;
  /** the summary came from a hook */
  fromHook?: boolean;
}

export interface TreeNavigationHooks {
  beforeTreeNavigation?(event: BeforeTreeNavigationEvent): BeforeTreeNavigationResult | void | Promise<BeforeTreeNavigationResult | void>;
  afterNavigation?(event: AfterNavigationEvent): void | Promise<void>;
}

export type HookLogger = (message: string) => void;

/** Registered navigation hooks, run in registration order. */
export class TreeNavigationHookRegistry {
  private readonly hooks: TreeNavigationHooks[] = [];

  constructor(private readonly log: HookLogger = () => {}) {}

  /** Returns a function that unregisters the hooks. */
  register(hooks: TreeNavigationHooks): () => void {
    this.hooks.push(hooks);
    return () => {
      const index = this.hooks.indexOf(hooks);
      if (index >= 0) this.hooks.splice(index, 1);
    };
  }

  /**
   * First cancel wins; the first usable summary is kept; instruction and label overrides accumulate
   * (a later hook's value wins).
   */
  async beforeTreeNavigation(event: BeforeTreeNavigationEvent): Promise<BeforeTreeNavigationResult> {
    const merged: BeforeTreeNavigationResult = {};
    for (const hook of [...this.hooks]) {
      const result = await this.safely('beforeTreeNavigation', () => hook.beforeTreeNavigation?.(event));
      if (!result || typeof result !== 'object') continue;
      if (result.cancel) return { cancel: true };
      if (result.summary !== undefined && merged.summary === undefined) {
        if (isUsableSummary(result.summary)) merged.summary = result.summary;
        else this.log('tree navigation hook beforeTreeNavigation returned a summary without text; ignored');
      }
      if (typeof result.customInstructions === 'string') merged.customInstructions = result.customInstructions;
      if (typeof result.replaceInstructions === 'boolean') merged.replaceInstructions = result.replaceInstructions;
      if (typeof result.label === 'string') merged.label = result.label;
    }
    return merged;
  }

  async afterNavigation(event: AfterNavigationEvent): Promise<void> {
    for (const hook of [...this.hooks]) await this.safely('afterNavigation', () => hook.afterNavigation?.(event));
  }

  private async safely<T>(name: string, run: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      this.log(`tree navigation hook ${name} failed: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    }
  }
}

function isUsableSummary(summary: HookSummary): boolean {
  return summary !== null && typeof summary === 'object' && typeof summary.summary === 'string' && summary.summary.trim() !== '';
}
