// "Compact Up To Here" (Session Tree context menu on entries of the active path; from the palette, a
// picker of the entries it accepts): keeps the conversation from the chosen entry on as it is and
// summarizes only what the context holds before it. The same flow as Compact Session: optional focus
// instructions, a preview (Compact / Edit summary before saving / Cancel), progress with Cancel.
// Refused with a message while a turn runs, for entries off the branch or already summarized, and when
// nothing precedes the entry; a tool result snaps back to the call that produced it (the preview says
// so). Cancelled or failed: the session is unchanged.
import * as vscode from 'vscode';
import { buildPreview, compactionCutTargets, prepareCompactionAt } from '../../compaction';
import type { SessionReader } from '../surfaces-types';
import { presentEntry } from '../tree/entry-presentation';
import { previewDetail, previewTitle } from './compact-session';
import { reviewInEditor } from '../summary-review';
import { askFocus, compactWithProgress, refuseByPreview, reportNotDone } from './compaction-flow';
import { pickPathEntry } from './entry-picker';
import { entryIdFrom, requireEntry, requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.compactUpToHere';

export type CompactUpToHereOutcome = 'compacted' | 'cancelled' | 'refused' | 'failed' | 'invalid';

interface ActionItem extends vscode.QuickPickItem {
  action: 'compact' | 'edit' | 'cancel';
}

/** From the palette: only entries the cut accepts as they are (after the latest kept start, with history before). */
async function pickTarget(store: SessionReader): Promise<string | undefined> {
  const targets = compactionCutTargets(store.getBranch());
  return pickPathEntry(store, vscode.l10n.t('Compact up to which entry?'), {
    include: (entry) => targets.has(entry.id),
    emptyMessage: vscode.l10n.t('Nothing to compact up to: the context holds no entry with history before it.'),
    placeHolder: vscode.l10n.t('Everything before the entry you pick is summarized; it and what follows stay as they are.'),
  });
}

/** Why nothing may start now, or undefined when the app is idle. */
function busyMessage(deps: SurfaceDeps): string | undefined {
  switch (deps.app.activity()) {
    case 'idle':
      return undefined;
    case 'compacting':
      return vscode.l10n.t('A compaction is already running.');
    default:
      return vscode.l10n.t('Wait for the agent to finish (or stop it) before compacting up to an entry.');
  }
}

export async function run(deps: SurfaceDeps, arg?: unknown, instructionsArg?: unknown): Promise<CompactUpToHereOutcome> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const keepFrom = arg === undefined ? await pickTarget(store) : entryIdFrom(arg);
  if (arg === undefined && keepFrom === undefined) return 'cancelled';
  const entry = requireEntry(deps, store, keepFrom);
  if (!entry) return 'invalid';
  const busy = busyMessage(deps);
  if (busy) {
    void vscode.window.showWarningMessage(busy);
    return 'refused';
  }
  const plan = prepareCompactionAt(store.getBranch(), deps.settings().compaction, entry.id);
  if (!plan.ok) {
    void vscode.window.showWarningMessage(plan.message);
    return 'refused';
  }

  const preview = deps.app.compaction.previewOf(plan.preparation) ?? buildPreview(plan.preparation);
  if (refuseByPreview(preview)) return 'refused';
  const asked = await askFocus(vscode.l10n.t('Compact Up To Here'), instructionsArg);
  if (!asked) return 'cancelled';
  const focus = asked.focus;

  const kept = store.getEntry(plan.preparation.firstKeptEntryId) ?? entry;
  const where = vscode.l10n.t('Keeps everything from “{0}” on.', presentEntry(kept).title);
  const detail = [where, ...(plan.note ? [plan.note] : []), previewDetail(preview)].join(' ');
  const items: ActionItem[] = [
    { label: `$(fold) ${vscode.l10n.t('Compact Up To Here')}`, detail, action: 'compact' },
    { label: `$(edit) ${vscode.l10n.t('Edit summary before saving')}`, detail: vscode.l10n.t('Review and edit the generated summary in an editor first.'), action: 'edit' },
    { label: `$(close) ${vscode.l10n.t('Cancel')}`, action: 'cancel' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: previewTitle(preview), placeHolder: detail, ignoreFocusOut: true });
  if (!picked || picked.action === 'cancel') return 'cancelled';

  try {
    await compactWithProgress(deps, vscode.l10n.t('Compacting up to the chosen entry…'), () =>
      deps.app.compaction.compact(focus, { keepFrom: entry.id, ...(picked.action === 'edit' ? { review: (result, _preparation, signal) => reviewInEditor(result, signal) } : {}) }),
    );
    deps.log.info(`compacted up to ${plan.preparation.firstKeptEntryId}${plan.snapped ? ` (chosen: ${entry.id})` : ''}${focus ? ` (focus: ${focus})` : ''}`);
    if (plan.note) void vscode.window.showInformationMessage(plan.note);
    return 'compacted';
  } catch (error) {
    const kind = reportNotDone(deps, error, {
      logAs: `compact up to ${entry.id}`,
      skipAs: 'warning',
      failed: (reason) => vscode.l10n.t('Compaction failed: {0}. The session is unchanged.', reason),
    });
    return kind === 'skipped' ? 'refused' : kind;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown, instructions?: unknown) => run(deps, arg, instructions));
}
