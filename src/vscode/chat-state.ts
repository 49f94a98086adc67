// Collects the ChatState the webview's chrome renders from: VS Code environment (version, folders,
// trust) plus the app controller's model, session, activity and usage. Never includes API keys.
import * as vscode from 'vscode';
import type { ArborApp } from '../app/arbor-app';
import type { ArborSettings } from '../app/settings';
import { RESTRICTED_MODE_REASON } from '../agent/approval';
import { LIMITS, type ChatState, type InstructionsInfo } from '../protocol';
import { instructionsInfo } from './instruction-files';
import { clip, toUsage } from './chat-items';
import { sessionDisplayTitle } from '../core/text';

export function collectChatState(context: vscode.ExtensionContext, app?: ArborApp, settings?: () => ArborSettings): ChatState {
  const version = (context.extension.packageJSON as { version?: unknown }).version;
  const trusted = vscode.workspace.isTrusted;
  const base: ChatState = {
    extensionVersion: typeof version === 'string' ? version : '0.0.0',
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.name),
    workspaceTrusted: trusted,
    modelLabel: null,
  };
  if (!app) return base;
  // No conversation: a state post (busy, idle, model…) must not cost O(path); totals come from the app.
  const snapshot = app.snapshot({ tree: false, conversation: false });
  const firstUser = snapshot.session && !snapshot.session.name ? app.views.firstUserMessage() : undefined;
  const level = snapshot.thinkingLevel;
  return {
    ...base,
    modelLabel: snapshot.model.name.slice(0, LIMITS.short),
    ...(trusted ? {} : { restrictedReason: RESTRICTED_MODE_REASON }),
    // Unnamed sessions read as their first user message (one line), as in the Sessions view.
    sessionName: sessionDisplayTitle(snapshot.session?.name, firstUser)?.slice(0, LIMITS.short) ?? null,
    sessionFile: snapshot.session?.file ?? null,
    models: app.models.available().slice(0, LIMITS.list).map((model) => ({
      key: model.key.slice(0, LIMITS.id),
      label: model.name.slice(0, LIMITS.short),
      provider: model.provider.slice(0, LIMITS.short),
      contextWindow: model.contextWindow,
      reasoning: model.reasoning,
      images: model.images,
      ...(model.keyMissing ? { keyMissing: true } : {}),
    })),
    currentModelKey: snapshot.model.key.slice(0, LIMITS.id),
    ...(level === 'off' || level === 'minimal' || level === 'low' || level === 'medium' || level === 'high' || level === 'xhigh' ? { thinkingLevel: level } : {}),
    approvalMode: snapshot.approvalMode,
    planReady: app.planReady,
    busy: snapshot.busy,
    queued: snapshot.queued.slice(0, LIMITS.list).map((q) => clip(q, LIMITS.prompt)),
    usage: snapshot.usage ? toUsage(snapshot.usage, app.views.branchTotals()) : null,
    settings: { branchSummaryEnabled: settings?.().branchSummary.enabled ?? true },
    ...withInstructions(app),
  };
}

function withInstructions(app: ArborApp): { instructions?: InstructionsInfo } {
  const info = instructionsInfo(app);
  return info ? { instructions: info } : {};
}

/** Fires when something collectChatState reads from VS Code changes (the app reports its own changes). */
export function onDidChangeChatState(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeWorkspaceFolders(listener),
    vscode.workspace.onDidGrantWorkspaceTrust(listener),
  );
}
