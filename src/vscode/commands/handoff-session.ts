// "Arbor: Hand Off to New Session" (the palette twin of `/handoff [focus]`): optional focus instructions,
// then the current model writes a handoff document that seeds a new session (the old one stays as it is,
// linked as the parent). Progress with Cancel, as for Compact Session; the outcome is typed.
import * as vscode from 'vscode';
import { askFocus, compactWithProgress, reportNotDone } from './compaction-flow';
import { requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.handoffSession';

export type HandoffOutcome = 'handedOff' | 'cancelled' | 'nothing' | 'failed' | 'invalid';

export async function run(deps: SurfaceDeps, instructionsArg?: unknown): Promise<HandoffOutcome> {
  if (!requireStore(deps)) return 'invalid';
  const asked = await askFocus(vscode.l10n.t('Hand Off to New Session'), instructionsArg);
  if (!asked) return 'cancelled';
  try {
    await compactWithProgress(deps, vscode.l10n.t('Writing the handoff document…'), () => deps.app.compaction.compact(asked.focus, { handoff: true }));
    deps.log.info(`handoff done${asked.focus ? ` (focus: ${asked.focus})` : ''}`);
    return 'handedOff';
  } catch (error) {
    return reportHandoffNotDone(deps, error);
  }
}

function reportHandoffNotDone(deps: SurfaceDeps, error: unknown): HandoffOutcome {
  const kind = reportNotDone(deps, error, {
    logAs: 'handoff',
    skipAs: 'info',
    failed: (reason) => vscode.l10n.t('Handoff failed: {0}. The session is unchanged.', reason),
  });
  return kind === 'skipped' ? 'nothing' : kind;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (instructions?: unknown) => run(deps, instructions));
}
