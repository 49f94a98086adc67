// "Switch Here with Summary…" (Session Tree): always offers No summary / Summarize / Summarize with my
// instructions, whatever arbor.branchSummary.enabled says.
import * as vscode from 'vscode';
import { switchTo, type SwitchOutcome } from './branch-switch';
import { entryIdFrom, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.switchHereWithSummary';

export function run(deps: SurfaceDeps, arg?: unknown): Promise<SwitchOutcome> {
  return switchTo(deps, entryIdFrom(arg), 'always');
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
