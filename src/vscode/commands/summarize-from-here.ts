// "Summarize from Here" (chat message toolbar, Session Tree context menu on entries of the current branch,
// palette: a picker of them): close a finished stage. The entries from the chosen one to the leaf become
// one summary on a new branch off the chosen entry's parent; the originals stay in the tree
// (src/branch/stage.ts). The same flow as Compact Session: optional focus, a preview (Summarize / Cancel),
// progress with Cancel, and a typed outcome told once. Cancelled, refused or failed: the file is unchanged.
import * as vscode from 'vscode';
import type { AppRefusal } from '../../app/app-outcome';
import { showRefusal } from '../refusals';
import { planStage, stageRefused, type StageOutcome, type StagePlan } from '../../branch/stage';
import type { SessionReader } from '../surfaces-types';
import { formatTokens } from '../status-bar';
import { presentEntry } from '../tree/entry-presentation';
import { revealInTree } from './branch-switch';
import { askFocus } from './compaction-flow';
import { pickPathEntry } from './entry-picker';
import { entryIdFrom, requireEntry, requireStore, withCancellableProgress, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.summarizeFromHere';

export type SummarizeFromHereOutcome = StageOutcome['status'] | 'invalid';

interface ActionItem extends vscode.QuickPickItem {
  action: 'summarize' | 'cancel';
}

/** From the palette: the entries of the current branch a stage can start at (newest first). */
function pickStart(store: SessionReader): Promise<string | undefined> {
  // a stage cannot contain a compaction: only the entries after the newest one qualify
  const path = store.getBranch();
  let start = path.length;
  while (start > 0 && path[start - 1]!.type !== 'compaction') start--;
  const afterCompaction = new Set(path.slice(start).map((e) => e.id));
  return pickPathEntry(store, vscode.l10n.t('Summarize from which entry?'), {
    include: (entry) => afterCompaction.has(entry.id) && entry.type !== 'label' && entry.type !== 'session_info',
    emptyMessage: vscode.l10n.t('Nothing to summarize: no entry of the current branch starts a stage.'),
    placeHolder: vscode.l10n.t('The entry you pick and everything after it become one summary; the originals stay in the tree.'),
  });
}

function previewDetail(store: SessionReader, plan: StagePlan): string {
  const from = store.getEntry(plan.fromEntryId);
  const parts = [
    vscode.l10n.t('Summarizes {0} messages (~{1} tokens) from “{2}” to the end into one summary.', plan.messageCount, formatTokens(plan.tokens), from ? presentEntry(from).title : plan.fromEntryId),
    vscode.l10n.t('The originals stay as a branch in the tree.'),
  ];
  const kept = plan.userWords.verbatim.length;
  if (kept > 0) parts.push(vscode.l10n.t('{0} of your messages (and pinned ones) are kept verbatim.', kept));
  return parts.join(' ');
}

async function askAction(store: SessionReader, plan: StagePlan): Promise<boolean> {
  const detail = previewDetail(store, plan);
  const items: ActionItem[] = [
    { label: `$(fold) ${vscode.l10n.t('Summarize from Here')}`, detail, action: 'summarize' },
    { label: `$(close) ${vscode.l10n.t('Cancel')}`, action: 'cancel' },
  ];
  const title = vscode.l10n.t('Summarize from here: ~{0} tokens → one summary', formatTokens(plan.tokens));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: detail, ignoreFocusOut: true });
  return picked?.action === 'summarize';
}

/** Tells the user how it ended (once) and shows the summary in the tree. */
async function report(deps: SurfaceDeps, outcome: StageOutcome | AppRefusal): Promise<void> {
  if ('kind' in outcome) return showRefusal(outcome, deps.log);
  switch (outcome.status) {
    case 'summarized':
      deps.log.info(`summarized ${outcome.summarizedEntryIds.length} entries from ${outcome.summarizedEntryIds[0]} into ${outcome.entry.id}`);
      await revealInTree(deps, outcome.entry.id);
      return;
    case 'cancelled':
      void vscode.window.showInformationMessage(vscode.l10n.t('Summary cancelled. The session is unchanged.'));
      return;
    case 'refused':
      void vscode.window.showWarningMessage(outcome.message);
      return;
    case 'failed':
      deps.log.error(`summarize from here failed: ${outcome.message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('The summary failed: {0}. The session is unchanged.', outcome.message.replace(/\.$/, '')));
      return;
  }
}

export async function run(deps: SurfaceDeps, arg?: unknown, instructionsArg?: unknown): Promise<SummarizeFromHereOutcome> {
  const store = requireStore(deps);
  if (!store) return 'invalid';
  const fromId = arg === undefined ? await pickStart(store) : entryIdFrom(arg);
  if (arg === undefined && fromId === undefined) return 'cancelled';
  const entry = requireEntry(deps, store, fromId);
  if (!entry) return 'invalid';
  const planned = deps.app.activity() === 'idle' ? planStage(store.getBranch(), entry.id) : stageRefused('busy');
  if (planned.status !== 'planned') {
    await report(deps, planned);
    return planned.status;
  }
  const asked = await askFocus(vscode.l10n.t('Summarize from Here'), instructionsArg);
  if (!asked || !(await askAction(store, planned.plan))) return 'cancelled';
  const outcome = await withCancellableProgress(vscode.l10n.t('Summarizing the stage…'), (signal) =>
    deps.app.tree.summarizeFromHere(entry.id, { ...(asked.focus ? { customInstructions: asked.focus } : {}), signal }),
  );
  await report(deps, outcome);
  return 'kind' in outcome ? 'refused' : outcome.status;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown, instructions?: unknown) => run(deps, arg, instructions));
}
