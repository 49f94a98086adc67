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
