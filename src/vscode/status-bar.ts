// The status bar context meter: tokens in the context and percent of the model's window, the automatic
// compaction threshold in the tooltip, a warning background near or over the threshold, and a spinner
// while a compaction or branch summary runs. Clicking it runs Compact Session (Cancel while compacting).
// It follows the focused chat, so its tooltip names that chat's session first (issue #28).
import * as vscode from 'vscode';
import type { UsageInfo } from '../agent';
import type { SurfaceActivity, SurfacesApp } from './surfaces-types';
import type { SessionEntry } from '../session/entries';
import { sessionDisplayTitle } from '../core/text';
import { userContentText } from '../core/messages';
import { Disposable } from './disposable';

function firstPromptOf(entries: readonly SessionEntry[]): string | undefined {
  for (const entry of entries) if (entry.type === 'message' && entry.message.role === 'user') return userContentText(entry.message.content);
  return undefined;
}

export const COMPACT_COMMAND = 'arbor.compactSession';
export const CANCEL_COMPACTION_COMMAND = 'arbor.cancelCompaction';
/** share of the threshold from which the meter turns to the warning colour */
export const NEAR_THRESHOLD = 0.85;

export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(tokens >= 10_000_000 ? 0 : 1)}M`;
  if (tokens >= 1000) return `${(tokens / 1000).toFixed(tokens >= 100_000 ? 0 : 1)}k`;
  return String(Math.round(tokens));
}

export interface MeterView {
  text: string;
  tooltip: string;
  warning: boolean;
  command: string;
}

/** Pure: what the meter shows for a usage and activity, for the session named `session` (its title). */
export function meterView(usage: UsageInfo | undefined, activity: SurfaceActivity, session?: string): MeterView {
  const view = meterOf(usage, activity);
  return session ? { ...view, tooltip: `${vscode.l10n.t('Session: {0}', session)}\n${view.tooltip}` } : view;
}

function meterOf(usage: UsageInfo | undefined, activity: SurfaceActivity): MeterView {
  if (activity === 'compacting') {
    return { text: `$(sync~spin) ${vscode.l10n.t('Compacting…')}`, tooltip: vscode.l10n.t('Arbor is compacting the session. Click to cancel.'), warning: false, command: CANCEL_COMPACTION_COMMAND };
  }
  if (activity === 'summarizing') {
    return { text: `$(sync~spin) ${vscode.l10n.t('Summarizing branch…')}`, tooltip: vscode.l10n.t('Arbor is summarizing a branch.'), warning: false, command: COMPACT_COMMAND };
  }
  if (!usage || usage.contextWindow <= 0) {
    return { text: '$(pulse) –', tooltip: vscode.l10n.t('Arbor context: no usage yet. Click to compact the session.'), warning: false, command: COMPACT_COMMAND };
  }
  const tokens = usage.contextTokens ?? usage.estimatedTokens;
  const estimated = usage.contextTokens === null;
  const percent = Math.round((tokens / usage.contextWindow) * 100);
  const warning = usage.thresholdTokens > 0 && tokens >= usage.thresholdTokens * NEAR_THRESHOLD;
  const text = `$(pulse) ${estimated ? '~' : ''}${formatTokens(tokens)} / ${formatTokens(usage.contextWindow)} (${percent}%)`;
  const tooltip = [
    vscode.l10n.t('Arbor context: {0} of {1} tokens ({2}%){3}.', tokens.toLocaleString('en-US'), usage.contextWindow.toLocaleString('en-US'), percent, estimated ? vscode.l10n.t(', estimated') : ''),
    vscode.l10n.t('Automatic compaction above {0} tokens.', usage.thresholdTokens.toLocaleString('en-US')),
    vscode.l10n.t('Click to compact the session now.'),
  ].join('\n');
  return { text, tooltip, warning, command: COMPACT_COMMAND };
}

export class StatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly localActivities: SurfaceActivity[] = [];
  private firstPrompt: { file: string; text: string | undefined } | undefined;

  constructor(private readonly app: Pick<SurfacesApp, 'store' | 'usage' | 'activity' | 'onDidChangeUsage' | 'onDidChangeSession' | 'onDidChangeLeaf'>) {
    super();
    this.item = this.register(vscode.window.createStatusBarItem('arbor.contextMeter', vscode.StatusBarAlignment.Right, 100));
    this.item.name = vscode.l10n.t('Arbor Context');
    for (const event of [app.onDidChangeUsage, app.onDidChangeSession, app.onDidChangeLeaf]) this.register(event(() => this.update()));
    this.update();
  }

  /** Marks work the surfaces run themselves (e.g. a branch summary); returns the "done" callback. */
  beginActivity(activity: SurfaceActivity): () => void {
    this.localActivities.push(activity);
    this.update();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.localActivities.splice(this.localActivities.indexOf(activity), 1);
      this.update();
    };
  }

  currentActivity(): SurfaceActivity {
    const app = this.app.activity();
    if (app === 'compacting' || app === 'summarizing') return app;
    return this.localActivities[this.localActivities.length - 1] ?? app;
  }

  update(): void {
    if (!this.app.store) {
      this.item.hide();
      return;
    }
    let usage: UsageInfo | undefined;
    try {
      usage = this.app.usage();
    } catch {
      usage = undefined;
    }
    const view = meterView(usage, this.currentActivity(), this.sessionTitle());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.command;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: view.tooltip };
    this.item.show();
  }

  /** The shown session's title (its name, else its first prompt); the first prompt is looked up once a file. */
  private sessionTitle(): string | undefined {
    const store = this.app.store;
    if (!store) return undefined;
    if (this.firstPrompt?.file !== store.file || this.firstPrompt.text === undefined) this.firstPrompt = { file: store.file, text: firstPromptOf(store.getEntries()) };
    return sessionDisplayTitle(store.getSessionName(), this.firstPrompt.text);
  }

}
