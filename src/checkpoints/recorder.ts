// Capture during an agent turn (docs/architecture.md, "file checkpoints"). Before a tool that changes
// things runs, the files it may change are recorded, as its effect says (`writesFiles`: the targets it
// names; `runs` — bash, or any tool nobody here wrote — a snapshot of the workspace, see change-scan.ts);
// after it ran, their new states. The first `before` of a file in a turn and the last
// `after` make the turn's manifest, appended to the session as one `arbor.files` custom entry after the
// turn's tool results. A checkpoint failure is logged and never stops or fails the tool.
import { resolveCallTargets, type CallTarget } from '../agent/tools/paths';
import type { AgentTool } from '../agent/tools/types';
import { changesSince, snapshotWorkspace, type WorkspaceSnapshot } from './change-scan';
import { FILES_CUSTOM_TYPE, MANIFEST_VERSION, sameState, type FileKey, type FileState, type FilesManifest } from './types';
import type { WorkspaceFiles } from './workspace-files';

/** Appends a custom entry to the session at its leaf (SessionStore.appendCustomEntry). */
export type AppendCustom = (customType: string, data: unknown) => Promise<{ id: string }>;

export class TurnRecorder {
  private before = new Map<FileKey, FileState>();
  private after = new Map<FileKey, FileState>();
  private method: FilesManifest['method'] = 'tool';
  private snapshot: WorkspaceSnapshot | undefined;

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** `targets`: the call's targets as resolved for the whole call (tool-calls.ts); resolved here when not given. */
  async beforeTool(tool: Pick<AgentTool, 'name' | 'effect'>, args: Record<string, unknown>, targets?: readonly CallTarget[]): Promise<void> {
    await this.guard(`before ${tool.name}`, async () => {
      if (tool.effect.kind === 'runs') this.snapshot = await snapshotWorkspace(this.files);
      for (const target of await this.targetsOf(tool, args, targets)) {
        if (!this.before.has(target.key)) this.before.set(target.key, await this.files.readState(target.absolute));
      }
    });
  }

  async afterTool(tool: Pick<AgentTool, 'name' | 'effect'>, args: Record<string, unknown>, targets?: readonly CallTarget[]): Promise<void> {
    await this.guard(`after ${tool.name}`, async () => {
      if (tool.effect.kind === 'runs' && this.snapshot) await this.recordScan(this.snapshot);
      for (const target of await this.targetsOf(tool, args, targets)) this.after.set(target.key, await this.files.readState(target.absolute));
    });
  }

  private async recordScan(snapshot: WorkspaceSnapshot): Promise<void> {
    this.snapshot = undefined;
    this.method = snapshot.method;
    for (const change of await changesSince(this.files, snapshot)) {
      if (!this.before.has(change.key)) this.before.set(change.key, change.before);
      this.after.set(change.key, change.after);
    }
  }

  /** The manifest of the turn so far (files whose state did not end up changed are left out). */
  manifest(): FilesManifest | undefined {
    const manifest: FilesManifest = { version: MANIFEST_VERSION, reason: 'turn', method: this.method, before: {}, after: {} };
    for (const [key, after] of [...this.after].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const before = this.before.get(key) ?? { kind: 'absent' };
      if (sameState(before, after)) continue;
      manifest.before[key] = before;
      manifest.after[key] = after;
    }
    return Object.keys(manifest.after).length > 0 ? manifest : undefined;
  }

  /** Appends the turn's manifest (when a file changed) and starts a new turn; returns the entry id. */
  async finishTurn(append: AppendCustom): Promise<string | undefined> {
    const manifest = this.manifest();
    this.before = new Map();
    this.after = new Map();
    this.method = 'tool';
    this.snapshot = undefined;
    if (!manifest) return undefined;
    try {
      return (await append(FILES_CUSTOM_TYPE, manifest)).id;
    } catch (error) {
      this.log(`checkpoints: could not append the file manifest: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    }
  }

  /** A file-writing tool's targets inside the workspace (each once); none for other tools. */
  private async targetsOf(tool: Pick<AgentTool, 'effect'>, args: Record<string, unknown>, targets: readonly CallTarget[] | undefined): Promise<{ key: FileKey; absolute: string }[]> {
    if (tool.effect.kind !== 'writesFiles') return [];
    const found = new Map<FileKey, { key: FileKey; absolute: string }>();
    for (const { resolved } of targets ?? (await resolveCallTargets(this.files.workspace, tool.effect, args))) {
      const target = resolved ? this.targetOf(resolved.absolute) : undefined;
      if (target) found.set(target.key, target);
    }
    return [...found.values()];
  }

  private targetOf(absolute: string): { key: FileKey; absolute: string } | undefined {
    const key = this.files.keyOf(absolute);
    return key === undefined || this.files.isExcluded(key) ? undefined : { key, absolute };
  }

  private async guard(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.log(`checkpoints: capture ${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}
