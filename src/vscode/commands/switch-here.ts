// "Switch Here" (Session Tree): moves the conversation to this entry. With arbor.branchSummary.enabled
// (default) it offers the summary dialog first; otherwise it switches without asking.
import * as vscode from 'vscode';
import { switchTo, type SwitchOutcome } from './branch-switch';
import { entryIdFrom, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.switchHere';

export function run(deps: SurfaceDeps, arg?: unknown): Promise<SwitchOutcome> {
  return switchTo(deps, entryIdFrom(arg), 'setting');
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
