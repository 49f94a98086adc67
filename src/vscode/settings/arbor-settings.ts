// The one place the extension reads and writes the `arbor.*` settings (docs/architecture.md, "Settings"):
// every surface and the app take them from here, and a test (test/unit/architecture/settings-reads.test.ts)
// fails on any other file that asks VS Code's configuration for them. The values are validated through the
// core parsers (src/app/settings.ts); which layer a value is taken from is decided by src/app/settings-read.ts.
// An invalid value gets ONE warning (per distinct message) and its default; a change applies without a
// reload (listeners are told through `onDidChange`, with the names of the settings that changed).
// A workspace's value of a user-only setting is dropped by VS Code before Arbor sees it: the workspace's
// settings files are read too (machineSettingsIn) so that the user is warned once that it is ignored.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { parseArborSettings, type ArborSettings, type RawArborSettings } from '../../app/settings';
import { ignoredSettingWarning, readRawSettings as readRaw } from '../../app/settings-read';
import { machineSettingsIn } from '../../app/workspace-settings-file';
import { detectContextWindow } from '../../llm/context-window';
import type { ModelInfo } from '../../llm/types';
import { Disposable } from '../disposable';
import type { Logger } from '../log';
import { firstModelId } from './local-server';
import { changedSettings, type ArborSettingsChange } from './settings-change';

export type { ArborSettingName, ArborSettingsChange } from './settings-change';

/** Raw values of every arbor.* setting this module parses (see src/app/settings-read.ts). */
export function readRawSettings(onIgnored?: (setting: string) => void): RawArborSettings {
  return readRaw((section) => vscode.workspace.getConfiguration(section), onIgnored);
}

/**
 * `arbor.mcp.servers` (docs/mcp.md): the user's value only. The setting is machine-scoped, so a
 * workspace's value is never used (and is warned about with the other user-only settings).
 */
export function readMcpServersSetting(): unknown {
  return vscode.workspace.getConfiguration('arbor.mcp').inspect<unknown>('servers')?.globalValue;
}

/** Writes one server's `enabled` choice into the user's `arbor.mcp.servers`. */
export async function writeMcpServerEnabled(server: string, enabled: boolean): Promise<boolean> {
  const current = readMcpServersSetting();
  if (!current || typeof current !== 'object' || !(server in current)) return false;
  const entry = (current as Record<string, Record<string, unknown>>)[server];
  const next = { ...(current as Record<string, unknown>), [server]: { ...entry, enabled } };
  await vscode.workspace.getConfiguration('arbor.mcp').update('servers', next, vscode.ConfigurationTarget.Global);
  return true;
}

export class ArborConfig extends Disposable {
  private current: ArborSettings;
  private readonly warned = new Set<string>();
  private readonly emitter = this.register(new vscode.EventEmitter<ArborSettingsChange>());
  private local: { url: string; contextWindow?: number; modelId?: string } | undefined;
  private hostModels: readonly ModelInfo[] = [];
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly log: Logger,
    private readonly warn: (message: string) => void = (message) => void vscode.window.showWarningMessage(vscode.l10n.t('Arbor settings: {0}', message)),
  ) {
    super();
    this.current = this.read();
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('arbor') || event.affectsConfiguration('files.exclude')) this.reload();
    }));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json'));
    for (const event of [watcher.onDidCreate, watcher.onDidChange]) this.register(event(() => void this.probeWorkspaceFiles()));
    void this.probeWorkspaceFiles();
    void this.detectLocal();
  }

  /** Warns (once per setting) about user-only settings a workspace's settings files try to set. */
  private async probeWorkspaceFiles(): Promise<void> {
    const files: [vscode.Uri, string | undefined][] = (vscode.workspace.workspaceFolders ?? []).map((f) => [vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'), undefined]);
    const workspaceFile = vscode.workspace.workspaceFile;
    if (workspaceFile?.scheme === 'file') files.push([workspaceFile, 'settings']);
    for (const [uri, key] of files) {
      if (uri.scheme !== 'file') continue;
      const text = await readFile(uri.fsPath, 'utf8').catch(() => undefined);
      if (text !== undefined) this.report(machineSettingsIn(text, key).map(ignoredSettingWarning));
    }
  }

  /** Shows each warning once per window (and logs it). */
  private report(warnings: readonly string[]): void {
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.log.warn(`settings: ${warning}`);
      this.warn(warning);
    }
  }

  get settings(): ArborSettings {
    return this.current;
  }

  /** Re-reads the configuration, reports new problems and tells the listeners what changed. */
  reload(): void {
    this.replace(this.read());
    void this.detectLocal();
  }

  private replace(next: ArborSettings): void {
    const changed = changedSettings(this.current, next);
    this.current = next;
    this.emitter.fire({ settings: next, changed });
  }

  private read(): ArborSettings {
    const ignored: string[] = [];
    const raw = readRawSettings((setting) => ignored.push(ignoredSettingWarning(setting)));
    const url = typeof raw.baseUrls?.local === 'string' ? raw.baseUrls.local.trim() : '';
    if (this.local && this.local.url === url) {
      if (this.local.contextWindow !== undefined) raw.localContextWindow = this.local.contextWindow;
      if (this.local.modelId !== undefined) raw.localModelId = this.local.modelId;
    }
    raw.hostModels = this.hostModels;
    const parsed = parseArborSettings(raw);
    this.report([...ignored, ...parsed.warnings]);
    return parsed.settings;
  }

  /** The editor's language models changed (src/vscode/language-models.ts): the model list follows. */
  setHostModels(models: readonly ModelInfo[]): void {
    this.hostModels = models;
    this.reload();
  }

  /** Asks a configured local server for its context window and model id (once per URL). */
  private async detectLocal(): Promise<void> {
    const url = this.current.baseUrls.local;
    if (!url || this.local?.url === url) return;
    this.local = { url };
    try {
      const detected = await detectContextWindow(url, { timeoutMs: 2000 });
      const modelId = await firstModelId(url);
      if (this.local?.url !== url) return;
      this.local = { url, ...(detected ? { contextWindow: detected.contextWindow } : {}), ...(modelId ? { modelId } : {}) };
      this.log.info(`local server ${url}: ${detected ? `context window ${detected.contextWindow} (${detected.source})` : 'context window not reported'}`);
      this.replace(this.read());
    } catch (error) {
      this.log.warn(`local server ${url}: detection failed: ${(error as Error).message}`);
    }
  }

}

// ---- writes: each goes where the setting is set now, so the next read sees it ----

interface Layers {
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The workspace when it sets the value (its value wins over the user's), else the user settings. */
function workspaceOrUser(layers: Layers | undefined): vscode.ConfigurationTarget {
  return layers?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/** As workspaceOrUser, with a workspace folder's value first. */
function folderWorkspaceOrUser(layers: Layers | undefined): vscode.ConfigurationTarget {
  return layers?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder : workspaceOrUser(layers);
}

/** Saves the chosen model in `arbor.model` (nothing is written when it is already the value read). */
export async function saveModelSetting(key: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('arbor');
  if (config.get<string>('model') === key) return;
  await config.update('model', key, workspaceOrUser(config.inspect<string>('model')));
}

/** Turns automatic compaction (`arbor.compaction.enabled`) on or off. */
export async function saveAutoCompactionSetting(enabled: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('arbor.compaction');
  await config.update('enabled', enabled, folderWorkspaceOrUser(config.inspect<boolean>('enabled')));
}

/** "Never ask again" of the warn-before-auto question: `arbor.compaction.warnBeforeAuto` off. */
export async function saveWarnBeforeAutoOff(): Promise<void> {
  const config = vscode.workspace.getConfiguration('arbor.compaction');
  await config.update('warnBeforeAuto', false, workspaceOrUser(config.inspect<boolean>('warnBeforeAuto')));
}

/** The user's list of enabled VS Code tools (Arbor: Choose VS Code Tools…). */
export async function saveVscodeToolsEnabled(names: readonly string[]): Promise<void> {
  await vscode.workspace.getConfiguration('arbor.vscodeTools').update('enabled', [...names], vscode.ConfigurationTarget.Global);
}
