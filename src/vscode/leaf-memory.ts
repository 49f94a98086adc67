// Remembers each session's position (leaf) across restarts in workspaceState, so the format stays pi's.
import type * as vscode from 'vscode';
import type { LeafMemory } from '../session/leaf-memory';

const KEY = 'arbor.leaves';
/** bounded: the oldest positions are forgotten first */
const MAX_SESSIONS = 500;

export class WorkspaceLeafMemory implements LeafMemory {
  constructor(private readonly state: vscode.Memento) {}

  private read(): Record<string, string | null> {
    const value = this.state.get<unknown>(KEY);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string | null>) : {};
  }

  get(file: string): string | null | undefined {
    const leaves = this.read();
    if (!Object.prototype.hasOwnProperty.call(leaves, file)) return undefined;
    const value = leaves[file];
    return typeof value === 'string' || value === null ? value : undefined;
  }

  async set(file: string, leafId: string | null): Promise<void> {
    const leaves = this.read();
    delete leaves[file];
    leaves[file] = leafId;
    const keys = Object.keys(leaves);
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_SESSIONS))) delete leaves[old];
    await this.state.update(KEY, leaves);
  }
}

const LAST_SESSION_KEY = 'arbor.lastSession';

/** The subset of ArborApp that reopening the last session needs. */
export interface ReopenableApp {
  readonly currentStore: { readonly file: string } | undefined;
  onDidChange(listener: (change: { kind: string }) => void): { dispose(): void };
  readonly session: { openSession(file: string): Promise<unknown> };
}

/**
 * Remembers which session the chat shows, so a window reload reopens it (at its remembered leaf, see
 * WorkspaceLeafMemory) instead of starting on an empty chat. A session without a file yet (nothing
 * written) or one that was deleted meanwhile is skipped.
 */
export class LastSessionMemory {
  constructor(private readonly state: vscode.Memento) {}

  get(): string | undefined {
    const value = this.state.get<unknown>(LAST_SESSION_KEY);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** Records every session switch of `app`. */
  track(app: ReopenableApp): { dispose(): void } {
    return app.onDidChange((change) => {
      if (change.kind !== 'session') return;
      const file = app.currentStore?.file;
      if (file && file !== this.get()) void Promise.resolve(this.state.update(LAST_SESSION_KEY, file)).catch(() => undefined);
    });
  }

  /** Reopens the remembered session when the app has none yet; false when there was nothing to reopen. */
  async reopen(app: ReopenableApp, fileExists: (file: string) => Promise<boolean>): Promise<boolean> {
    const file = this.get();
    if (!file || app.currentStore || !(await fileExists(file))) return false;
    await app.session.openSession(file);
    return true;
  }
}
