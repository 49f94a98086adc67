// Fixtures for the surfaces tests: generated session files, a fake SurfacesApp that records what the
// commands asked of it, and temporary replacements of vscode.window methods (pickers, messages).
import type { AppNavigateResult } from '../../src/app/app-types';
import type { CarryResult } from '../../src/branch';
import type { TreeActionsApi } from '../../src/app/tree-actions';
import type { SessionActionsApi } from '../../src/app/open-session';
import type { ModelChoiceApi } from '../../src/app/model-choice';
import type { CheckpointsApi } from '../../src/app/chat-parts';
import type { CompactionActionsApi } from '../../src/app/compaction-actions';
import { buildPreview, prepareCompaction, type CompactionOutcome } from '../../src/compaction';
import { NO_SESSION_VIEWS } from '../../src/app/session-views';
import { DEMO_MODEL } from '../../src/llm/models';
import type { FilesRestoreResult } from '../../src/app/checkpoint-service';
import { done, refused, type AppOutcome, type AppRefusal } from '../../src/app/app-outcome';
import type { ApprovalMode } from '../../src/core/approval-modes';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { navigateTree, type StageOutcome } from '../../src/branch';
import type { PinOutcome } from '../../src/app/pin-entry';
import { PIN_CUSTOM_TYPE, pinData } from '../../src/session/pins';
import { SessionStore } from '../../src/session/store';
import type { HostServices, SurfaceDeps, ViewServices } from '../../src/vscode/commands/surface-deps';
import { parseArborSettings, type ArborSettings } from '../../src/app/settings';
import type { ModelView, PromptOutcome } from '../../src/app/app-types';
import { renameSession, type SessionSummary } from '../../src/session/catalog';
import type { SurfaceNavigateOptions, SurfaceNavigateResult, SurfacesApp } from '../../src/vscode/surfaces-types';

let clock = Date.parse('2025-01-01T00:00:00.000Z');
function nextTime(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export function userEntry(id: string, parentId: string | null, text: string): Record<string, unknown> {
  return { type: 'message', id, parentId, timestamp: nextTime(), message: { role: 'user', content: text, timestamp: clock } };
}

export function assistantEntry(id: string, parentId: string | null, text: string, contextTokens = 15): Record<string, unknown> {
  return {
    type: 'message',
    id,
    parentId,
    timestamp: nextTime(),
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'openai-completions',
      provider: 'fake',
      model: 'fake-model',
      usage: { input: contextTokens - 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: contextTokens, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'stop',
      timestamp: clock,
    },
  };
}

export function compactionEntry(id: string, parentId: string, firstKeptEntryId: string): Record<string, unknown> {
  return { type: 'compaction', id, parentId, timestamp: nextTime(), summary: '## Goal\nsummary text', firstKeptEntryId, tokensBefore: 1234 };
}

export function branchSummaryEntry(id: string, parentId: string, fromId: string): Record<string, unknown> {
  return { type: 'branch_summary', id, parentId, timestamp: nextTime(), fromId, summary: 'The branch tried X.' };
}

export function labelEntry(id: string, parentId: string, targetId: string, label: string): Record<string, unknown> {
  return { type: 'label', id, parentId, timestamp: nextTime(), targetId, label };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'arbor-surfaces-'));
}

/** Writes a session file from entries (header first) and opens it. */
export async function sessionFrom(entries: readonly Record<string, unknown>[], dir = tempDir(), leafId?: string | null): Promise<SessionStore> {
  const id = `s${Math.random().toString(16).slice(2, 10)}`;
  const header = { type: 'session', version: 3, id, timestamp: new Date(clock).toISOString(), cwd: dir };
  const file = join(dir, `2025-01-01T00-00-00-000Z_${id}.jsonl`);
  writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
  return SessionStore.open(file, leafId === undefined ? {} : { leafId });
}

/**
 * Two branches below a1:   u1 → a1 ┬ u2 → a2            (branch A)
 *                                 └ u3 → a3 → c1 → u4   (branch B, compacted, current)
 */
export function twoBranchEntries(): Record<string, unknown>[] {
  return [
    userEntry('u1', null, 'First question\nsecond line'),
    assistantEntry('a1', 'u1', 'First answer'),
    userEntry('u2', 'a1', 'Try approach A'),
    assistantEntry('a2', 'u2', 'A did not work'),
    userEntry('u3', 'a1', 'Try approach B'),
    assistantEntry('a3', 'u3', 'B works'),
    compactionEntry('c1', 'a3', 'u3'),
    userEntry('u4', 'c1', 'Continue with B'),
  ];
}

export interface Call {
  method: string;
  args: unknown[];
}

/** A SurfacesApp over a real store that records calls; navigation without a summary is the real one. */
export class FakeApp implements SurfacesApp {
  readonly calls: Call[] = [];
  readonly sessionChanged = new vscode.EventEmitter<void>();
  readonly leaf = new vscode.EventEmitter<void>();
  readonly usageChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeSession = this.sessionChanged.event;
  readonly onDidChangeLeaf = this.leaf.event;
  readonly onDidChangeUsage = this.usageChanged.event;
  navigateImpl: ((targetId: string, options: SurfaceNavigateOptions) => Promise<SurfaceNavigateResult>) | undefined;
  compactImpl: (() => Promise<void>) | undefined;
  stageImpl: (() => Promise<StageOutcome>) | undefined;
  sessionList: SessionSummary[] = [];
  /** when set, the actions that may be refused answer with it (the command shows it as a warning) */
  refusal: AppRefusal | undefined;
  /** when set, label throws it (an exception: the command shows and logs it as an error) */
  failure: Error | undefined;

  constructor(public store: SessionStore | undefined) {}

  /** the tree actions are this fake's own methods (the real app's are src/app/tree-actions.ts) */
  get tree(): TreeActionsApi {
    return this;
  }
  /** the focused chat's session part: forks are recorded; the switches by file are this fake's own below */
  readonly session: SessionActionsApi = {
    forkBranch: async (entryId?: string) => {
      this.calls.push({ method: 'forkSession', args: [entryId] });
      return this.refusal ?? done({ file: '', id: 'forked', persisted: true });
    },
    newSession: async () => ({ file: '', id: 'new', persisted: false }),
    openSession: async (file: string) => ({ file, id: 'opened', persisted: true }),
    renameSession: async () => done(),
    sessionView: () => (this.store ? { file: this.store.file, id: this.store.header.id, persisted: true } : null),
    nestedInstructionFiles: () => [],
    listSessions: async () => this.sessionList,
  };
  /** the views part: this fake shows nothing (the surfaces read its store) */
  readonly views = NO_SESSION_VIEWS;
  /** the model part: no models; a switch is recorded and refused */
  readonly models: ModelChoiceApi = {
    current: { ...DEMO_MODEL, provider: 'fake', id: 'fake-gpt' },
    currentKey: 'fake/fake-gpt',
    currentThinkingLevel: 'off',
    available: () => [],
    set: async (key: string) => {
      this.calls.push({ method: 'setModel', args: [key] });
      return refused('unknown-model', `FakeApp has no model "${key}"`);
    },
    setThinkingLevel: async () => done(),
  };
  /** manual compaction: recorded, scripted by compactImpl; the preview is computed from the store's path */
  readonly compaction: CompactionActionsApi = {
    compact: async (customInstructions, options = {}) => {
      this.calls.push({ method: 'compact', args: [customInstructions, options.review ? 'review' : undefined, ...(options.handoff ? ['handoff'] : [])] });
      if (this.compactImpl) await this.compactImpl();
      // the commands read nothing of the outcome
      return {} as CompactionOutcome;
    },
    cancel: () => {
      this.calls.push({ method: 'cancelCompaction', args: [] });
      return false;
    },
    preview: () => {
      const preparation = this.store && prepareCompaction(this.store.getBranch(), parseArborSettings({}).settings.compaction);
      return preparation ? buildPreview(preparation) : undefined;
    },
    previewOf: (preparation) => buildPreview(preparation),
  };
  /** checkpoints as the settings have them, with an empty store (these tests keep no checkpoints) */
  readonly checkpoints: CheckpointsApi = {
    settings: parseArborSettings({}).settings.checkpoints,
    blobPath: async () => undefined,
    journalsFolder: async () => undefined,
    pathOf: async () => undefined,
    storeSize: async () => undefined,
    collect: async () => undefined,
  };
  async previewRestoreFiles(): Promise<undefined> {
    return undefined;
  }
  fileChanges(): [] {
    return [];
  }
  readonly navigating = false;
  filesTargetOf(targetId: string): string | null {
    return targetId;
  }
  async previewSwitchFiles(): Promise<undefined> {
    return undefined;
  }
  async restoreFilesOnly(entryId: string): Promise<AppOutcome<FilesRestoreResult>> {
    this.calls.push({ method: 'restoreFilesOnly', args: [entryId] });
    return this.refusal ?? refused('files-not-restored', 'FakeApp keeps no checkpoints');
  }
  cancelNavigation(): boolean {
    return false;
  }
  async branchAt(entryId: string): Promise<AppOutcome> {
    this.calls.push({ method: 'branchAt', args: [entryId] });
    return this.refusal ?? done();
  }

  usage() {
    return undefined;
  }
  activity() {
    return 'idle' as const;
  }
  async navigate(targetId: string, options: SurfaceNavigateOptions = {}): Promise<AppOutcome<AppNavigateResult>> {
    this.calls.push({ method: 'navigate', args: [targetId, { ...options, signal: options.signal ? 'signal' : undefined }] });
    if (this.refusal) return this.refusal;
    // a scripted result names only what the command reads
    if (this.navigateImpl) return done((await this.navigateImpl(targetId, options)) as AppNavigateResult);
    const result = await navigateTree(this.store!, targetId, {});
    this.leaf.fire();
    return done(result);
  }
  async insertBranchSummary(sourceLeafId: string, options: { customInstructions?: string; signal?: AbortSignal } = {}): Promise<AppOutcome<CarryResult>> {
    this.calls.push({ method: 'insertBranchSummary', args: [sourceLeafId, options.customInstructions] });
    // the commands read nothing of the carried summary
    return this.refusal ?? done({} as CarryResult);
  }
  async label(entryId: string, label: string | undefined): Promise<AppOutcome> {
    this.calls.push({ method: 'label', args: [entryId, label] });
    if (this.failure) throw this.failure;
    if (this.refusal) return this.refusal;
    await this.store!.appendLabelChange(entryId, label);
    return done();
  }
  async pin(entryId: string, pinned: boolean): Promise<PinOutcome> {
    this.calls.push({ method: 'pin', args: [entryId, pinned] });
    await this.store!.appendCustomEntry(PIN_CUSTOM_TYPE, pinData(entryId, pinned));
    return done(pinned ? 'pinned' : 'unpinned');
  }
  async summarizeFromHere(entryId: string, options: { customInstructions?: string }): Promise<StageOutcome> {
    this.calls.push({ method: 'summarizeFromHere', args: [entryId, options.customInstructions] });
    return this.stageImpl ? this.stageImpl() : { status: 'cancelled' };
  }
  async openSession(file: string): Promise<void> {
    this.calls.push({ method: 'openSession', args: [file] });
    this.store = await SessionStore.open(file);
    this.sessionChanged.fire();
  }
  isOpen(file: string): boolean {
    return this.store?.file === file;
  }
  async renameSession(file: string, name: string): Promise<AppOutcome> {
    this.calls.push({ method: 'renameSession', args: [file, name] });
    if (this.refusal) return this.refusal;
    if (this.store?.file === file) await this.store.appendSessionInfo(name);
    else await renameSession(file, name);
    return done();
  }
  async newSession(): Promise<string> {
    this.calls.push({ method: 'newSession', args: [] });
    return '';
  }
  mode: ApprovalMode = 'ask';
  approvalMode(): ApprovalMode {
    return this.mode;
  }
  async setApprovalMode(mode: ApprovalMode): Promise<void> {
    this.calls.push({ method: 'setApprovalMode', args: [mode] });
    this.mode = mode;
  }
  async runPlan(mode: Exclude<ApprovalMode, 'plan'>): Promise<PromptOutcome> {
    this.calls.push({ method: 'runPlan', args: [mode] });
    if (this.refusal) return this.refusal;
    this.mode = mode;
    return { kind: 'sent' };
  }
  async applySettings(): Promise<void> {
    this.calls.push({ method: 'applySettings', args: [] });
  }
  async revealInChat(entryId: string): Promise<void> {
    this.calls.push({ method: 'revealInChat', args: [entryId] });
  }
  async setChatInput(text: string): Promise<void> {
    this.calls.push({ method: 'setChatInput', args: [text] });
  }
  called(method: string): Call[] {
    return this.calls.filter((c) => c.method === method);
  }
}

export interface Log {
  lines: string[];
  trace(m: string): void;
  debug(m: string): void;
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
}

export function memoryLog(): Log {
  const lines: string[] = [];
  const push = (level: string) => (m: string) => void lines.push(`${level}: ${m}`);
  return { lines, trace: push('trace'), debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** Settings with fixed branch-summary options (no configuration writes needed). */
export function fixedSettings(branchSummaryEnabled: boolean): () => ArborSettings {
  const settings = parseArborSettings({}).settings;
  settings.branchSummary = { enabled: branchSummaryEnabled, reserveTokens: 16384 };
  return () => settings;
}

/**
 * The views and host services a command gets, inert: these tests run commands without the real views (the
 * surfaces and UI suites use those), so a refresh or an activity does nothing and nothing is revealed.
 */
function inertServices(): ViewServices & HostServices {
  const keys = new Map<string, string>();
  return {
    tree: { treeModel: undefined },
    treeView: { visible: false, reveal: async () => undefined },
    sessions: { refresh: () => undefined },
    status: { beginActivity: () => () => undefined },
    keys: { hasKey: async (p) => keys.has(p), setKey: async (p, k) => void keys.set(p, k), clearKey: async (p) => void keys.delete(p) },
    chatPanels: { openChat: async () => Promise.reject(new Error('no editor chats in this test')), showInEditor: async () => Promise.reject(new Error('no editor chats in this test')) },
    conversationTree: { show: () => undefined },
    mcp: { servers: { list: () => [], restart: async () => undefined } as never, heldServers: () => [], setEnabled: async () => false, askAgain: async () => undefined, showLog: () => undefined },
  };
}

export function depsFor(app: FakeApp, options: { branchSummaryEnabled?: boolean } = {}): SurfaceDeps & { log: Log } {
  return { app, log: memoryLog(), settings: fixedSettings(options.branchSummaryEnabled ?? true), ...inertServices() };
}

type WindowStubs = Partial<Record<'showQuickPick' | 'showInputBox' | 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage' | 'showSaveDialog' | 'showOpenDialog' | 'withProgress', (...args: any[]) => unknown>>;

export interface Stubbed {
  messages: { level: 'info' | 'warning' | 'error'; text: string }[];
  pickers: { items: unknown[]; options: unknown }[];
  inputs: unknown[];
  restore(): void;
}

/**
 * Replaces vscode.window methods for one test. Messages are recorded (and answered by `answers` for
 * modal questions); pickers are recorded and answered by the given stubs. Call restore() in finally.
 */
export function stubWindow(stubs: WindowStubs = {}): Stubbed {
  const window = vscode.window as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  const result: Stubbed = { messages: [], pickers: [], inputs: [], restore: () => saved.forEach((value, key) => (window[key] = value)) };
  const replace = (name: string, fn: unknown) => {
    if (!saved.has(name)) saved.set(name, window[name]);
    window[name] = fn;
  };
  const message = (level: 'info' | 'warning' | 'error', answer?: (...args: any[]) => unknown) =>
    async (text: string, ...rest: unknown[]) => {
      result.messages.push({ level, text });
      return answer ? answer(text, ...rest) : undefined;
    };
  replace('showInformationMessage', message('info', stubs.showInformationMessage));
  replace('showWarningMessage', message('warning', stubs.showWarningMessage));
  replace('showErrorMessage', message('error', stubs.showErrorMessage));
  replace('showQuickPick', async (items: unknown, options: unknown) => {
    const list = await Promise.resolve(items as unknown[]);
    result.pickers.push({ items: list, options });
    return stubs.showQuickPick ? stubs.showQuickPick(list, options) : undefined;
  });
  replace('showInputBox', async (options: unknown) => {
    result.inputs.push(options);
    return stubs.showInputBox ? stubs.showInputBox(options) : undefined;
  });
  if (stubs.showSaveDialog) replace('showSaveDialog', stubs.showSaveDialog);
  if (stubs.showOpenDialog) replace('showOpenDialog', stubs.showOpenDialog);
  if (stubs.withProgress) replace('withProgress', stubs.withProgress);
  return result;
}

/** Picks the QuickPick item whose label contains `text`. */
export function pickLabel(text: string) {
  return (items: readonly { label: string }[]) => items.find((i) => i.label.includes(text));
}
