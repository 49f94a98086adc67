// Arbor's walkthrough (Get Started, contributed in package.json `walkthroughs`) opens by itself once, on
// the first activation in a profile, so a newcomer (also the one `npm start` serves) sees it instead of a
// bare workbench. VS Code opens walkthroughs on install only for gallery installs; this covers the rest.
// `workbench.welcomePage.walkthroughs.openOnInstall: false` turns it off, as it does for VS Code's own.
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'arbor.gettingStarted';
/** set once a prompt is sent: it ticks the "Send a prompt" step (package.json completionEvents), which
 * opening the chat used to tick before any prompt (issue #28) */
export const PROMPT_SENT_CONTEXT = 'arbor.promptSent';
const SHOWN_KEY = 'arbor.walkthroughShown';

export interface WalkthroughDeps {
  state: Pick<vscode.Memento, 'get' | 'update'>;
  extensionId: string;
  /** the user's `workbench.welcomePage.walkthroughs.openOnInstall` (VS Code's default: true) */
  openOnInstall: () => boolean;
  open(walkthrough: string): Thenable<unknown>;
}

/** Opens the walkthrough unless it was opened before or the user turned walkthroughs off; true when opened. */
export async function openWalkthroughOnce(deps: WalkthroughDeps): Promise<boolean> {
  if (deps.state.get<boolean>(SHOWN_KEY) || !deps.openOnInstall()) return false;
  await deps.state.update(SHOWN_KEY, true);
  await deps.open(`${deps.extensionId}#${WALKTHROUGH_ID}`);
  return true;
}

export function walkthroughDeps(context: vscode.ExtensionContext): WalkthroughDeps {
  return {
    state: context.globalState,
    extensionId: context.extension.id,
    openOnInstall: () => vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true),
    open: (walkthrough) => vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthrough, false),
  };
}

/** Ticks the walkthrough's "Send a prompt" step (the context key its completion event waits for). */
export function markPromptSent(): void {
  void vscode.commands.executeCommand('setContext', PROMPT_SENT_CONTEXT, true);
}
