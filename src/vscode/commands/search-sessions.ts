// "Arbor: Search Sessions": full-text search over the sessions the Sessions view lists. A QuickPick
// searches as you type (debounced; a new query cancels the search in flight) and streams hits in:
// the snippet (VS Code highlights the typed text in it), the session's title, the kind and age of the
// entry. Picking a hit opens its session like the Sessions view does; an entry on the active path is
// revealed in the chat, one on another branch is selected in the Session Tree with an offer to switch
// there. Read-only, so it also works in untrusted workspaces.
import { errorText } from '../../core/error-text';
import * as vscode from 'vscode';
import { plainMarkdownLine } from '../../core/plain-line';
import { searchSessions, type SearchOptions, type SearchResult, type SearchTarget, type SessionSearchHit } from '../../session/search';
import { relativeTime, sessionTitle } from '../sessions/sessions-provider';
import { SESSION_TREE_VIEW_ID } from '../tree/session-tree-provider';
import * as revealInChat from './reveal-in-chat';
import * as sessionsOpen from './sessions-open';
import { type SurfaceDeps } from './surface-deps';
import * as switchHere from './switch-here';
import * as switchHereWithSummary from './switch-here-with-summary';

export const id = 'arbor.searchSessions';

/** wait this long after the last keystroke before searching */
export const SEARCH_DEBOUNCE_MS = 150;
/** most hits listed in total, and per session */
export const SEARCH_LIMIT = 200;
export const SEARCH_PER_SESSION = 20;
/** streamed hits are added to the list at most this often */
const FLUSH_MS = 50;

export interface SearchSessionsArgs {
  /** prefills the search (e.g. from a keybinding's `args`) */
  query?: string;
  /**
   * @internal tests: instead of showing the picker, run the search for `query` to the end and open the
   * hit this returns (nothing when undefined). Only callable in-process (a function cannot be serialized).
   */
  choose?: (hits: readonly SessionSearchHit[]) => SessionSearchHit | undefined;
}

/** What opening a hit did. */
export interface OpenHitOutcome {
  /**
   * revealed: on the active path, scrolled to in the chat; offered: on another branch, selected in the
   * Session Tree and Switch Here offered; opened: only the session (a session-name hit, or the entry is
   * gone); failed: the session could not be opened
   */
  status: 'revealed' | 'offered' | 'opened' | 'failed';
  file: string;
  entryId: string;
  /** offered: settles with the command the user chose (switchHere / switchHereWithSummary) or undefined */
  offer?: Promise<string | undefined>;
}

export type SearchSessionsOutcome =
  | { status: 'dismissed' }
  | { status: 'failed'; message: string }
  | { status: 'picked'; hit: SessionSearchHit; open: OpenHitOutcome };

export interface SearchPickItem extends vscode.QuickPickItem {
  /** undefined for the informational rows (no matches, limit reached, unreadable files) */
  hit?: SessionSearchHit;
}

/** The sessions to search, as the Sessions view lists them (newest first), with its titles. */
export async function searchTargets(deps: SurfaceDeps): Promise<SearchTarget[]> {
  const sessions = await deps.app.session.listSessions();
  return sessions.map((session) => ({ file: session.file, title: sessionTitle(session) }));
}

/** Searches the listed sessions (the search the picker runs, with its caps). */
export async function search(deps: SurfaceDeps, query: string, options: Omit<SearchOptions, 'limit' | 'perSession'> = {}): Promise<SearchResult> {
  const targets = await searchTargets(deps);
  return runSearch(deps, targets, query, options);
}

async function runSearch(deps: SurfaceDeps, targets: readonly SearchTarget[], query: string, options: SearchOptions): Promise<SearchResult> {
  const started = Date.now();
  const result = await searchSessions(targets, query, { limit: SEARCH_LIMIT, perSession: SEARCH_PER_SESSION, ...options });
  for (const error of result.errors) deps.log.warn(`search: could not search ${error.file}: ${error.message}`);
  deps.log.debug(
    `search: ${result.hits.length} hit(s) in ${result.filesSearched}/${targets.length} session(s), ${(result.bytesRead / 1024 / 1024).toFixed(1)} MB, ` +
      `${Date.now() - started} ms${result.cancelled ? ' (cancelled)' : ''}${result.truncated ? ' (limit reached)' : ''}`,
  );
  return result;
}

const KIND_ICONS: Record<SessionSearchHit['kind'], string> = {
  user: 'account',
  assistant: 'hubot',
  toolResult: 'tools',
  bash: 'terminal',
  custom: 'extensions',
  compaction: 'fold',
  branchSummary: 'git-merge',
  label: 'tag',
  sessionName: 'info',
};

export function kindLabel(hit: SessionSearchHit): string {
  switch (hit.kind) {
    case 'user':
      return vscode.l10n.t('You');
    case 'assistant':
      return vscode.l10n.t('Assistant');
    case 'toolResult':
      return hit.toolName ? vscode.l10n.t('Tool result: {0}', hit.toolName) : vscode.l10n.t('Tool result');
    case 'bash':
      return vscode.l10n.t('Shell command');
    case 'custom':
      return vscode.l10n.t('Extension message');
    case 'compaction':
      return vscode.l10n.t('Compaction summary');
    case 'branchSummary':
      return vscode.l10n.t('Branch summary');
    case 'label':
      return vscode.l10n.t('Label');
    case 'sessionName':
      return vscode.l10n.t('Session name');
  }
}

/** `$(name)` in text would render as an icon: escape it. */
function escapeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

export function hitItem(hit: SessionSearchHit, now = Date.now()): SearchPickItem {
  const when = hit.timestamp ? relativeTime(new Date(hit.timestamp), now) : undefined;
  return {
    // plain text: Markdown marks off (VS Code highlights the typed words wherever they are)
    label: `$(${KIND_ICONS[hit.kind]}) ${escapeIcons(plainMarkdownLine(hit.snippet))}`,
    description: escapeIcons(hit.title ?? vscode.l10n.t('(empty session)')),
    detail: when ? `${kindLabel(hit)} · ${when}` : kindLabel(hit),
    // VS Code filters and re-sorts by the typed text; the hits are already the answer.
    alwaysShow: true,
    hit,
  };
}

function infoItem(label: string, detail?: string): SearchPickItem {
  return { label, ...(detail ? { detail } : {}), alwaysShow: true };
}

/** The rows shown once a search has finished. */
export function finalItems(items: readonly SearchPickItem[], result: SearchResult): SearchPickItem[] {
  const rows = [...items];
  if (rows.length === 0) rows.push(infoItem(`$(search-stop) ${vscode.l10n.t('No matches')}`, vscode.l10n.t('Every word must occur in the same message; case is ignored.')));
  if (result.truncated) rows.push(infoItem(`$(info) ${vscode.l10n.t('Showing the first {0} matches', items.length)}`, vscode.l10n.t('Add words to narrow the search.')));
  if (result.errors.length > 0) {
    rows.push(
      infoItem(
        `$(warning) ${result.errors.length === 1 ? vscode.l10n.t('1 session could not be searched') : vscode.l10n.t('{0} sessions could not be searched', result.errors.length)}`,
        vscode.l10n.t('See Arbor: Show Logs for details.'),
      ),
    );
  }
  return rows;
}

/** Opens the hit's session (as the Sessions view does) and shows the entry; see OpenHitOutcome. */
export async function openHit(deps: SurfaceDeps, hit: SessionSearchHit): Promise<OpenHitOutcome> {
  const base = { file: hit.file, entryId: hit.entryId };
  const opened = await sessionsOpen.run(deps, hit.file);
  const store = deps.app.store;
  if (!opened || !store || store.file !== hit.file) return { status: 'failed', ...base };
  const entry = hit.kind === 'sessionName' ? undefined : store.getEntry(hit.entryId);
  if (!entry) {
    if (hit.kind !== 'sessionName') {
      void vscode.window.showWarningMessage(vscode.l10n.t('That entry is no longer in the session; it was opened without it.'));
    }
    await focusChat(deps);
    return { status: 'opened', ...base };
  }
  const onPath = store.getBranch().some((e) => e.id === entry.id);
  if (onPath) {
    // What selecting a Session Tree row does: the chat scrolls to the entry.
    await revealInChat.run(deps, entry.id);
    return { status: 'revealed', ...base };
  }
  await revealInTree(deps, entry.id);
  return { status: 'offered', ...base, offer: offerSwitch(deps, hit.file, entry.id) };
}

async function focusChat(deps: SurfaceDeps): Promise<void> {
  try {
    await vscode.commands.executeCommand('arbor.chat.focus');
  } catch (error) {
    deps.log.debug(`could not focus the chat: ${errorText(error)}`);
  }
}

async function revealInTree(deps: SurfaceDeps, entryId: string): Promise<void> {
  try {
    await vscode.commands.executeCommand(`${SESSION_TREE_VIEW_ID}.focus`);
    await deps.treeView.reveal(entryId, { select: true, focus: true, expand: true });
  } catch (error) {
    deps.log.debug(`could not reveal ${entryId} in the Session Tree: ${errorText(error)}`);
  }
}

/** "This match is on another branch": Switch Here / Switch Here with Summary… (the Session Tree's commands). */
async function offerSwitch(deps: SurfaceDeps, file: string, entryId: string): Promise<string | undefined> {
  const switchLabel = vscode.l10n.t('Switch Here');
  const summaryLabel = vscode.l10n.t('Switch Here with Summary…');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('This match is on another branch of the session (selected in the Session Tree). Continue the conversation from there?'),
    switchLabel,
    summaryLabel,
  );
  if (choice !== switchLabel && choice !== summaryLabel) return undefined;
  if (deps.app.store?.file !== file) {
    void vscode.window.showInformationMessage(vscode.l10n.t('That session is no longer open; nothing was switched.'));
    return undefined;
  }
  const command = choice === switchLabel ? switchHere.id : switchHereWithSummary.id;
  await vscode.commands.executeCommand(command, entryId);
  return command;
}

/** The interactive picker; settles when it closes (after opening the picked hit). */
export function showSearchPicker(deps: SurfaceDeps, initialQuery = ''): Promise<SearchSessionsOutcome> {
  return new Promise((resolve) => {
    const picker = vscode.window.createQuickPick<SearchPickItem>();
    picker.title = vscode.l10n.t('Search Sessions');
    picker.placeholder = vscode.l10n.t('Search what was said in this folder\'s sessions (all words, any order)');
    picker.matchOnDescription = false;
    picker.matchOnDetail = false;
    picker.keepScrollPosition = true;
    // Keep our order (newest session first): VS Code sorts by label matches unless told not to. The
    // property is proposed API in the 1.90 typings but honoured by the extension host.
    (picker as { sortByLabel?: boolean }).sortByLabel = false;
    const targets = searchTargets(deps);
    targets.catch(() => undefined); // reported by the first search that awaits it
    let timer: NodeJS.Timeout | undefined;
    let running: AbortController | undefined;
    let generation = 0;
    let lastQuery: string | undefined;
    let picked = false;

    const start = async (query: string) => {
      running?.abort();
      lastQuery = query;
      const gen = ++generation;
      if (query.trim() === '') {
        picker.items = [];
        picker.busy = false;
        return;
      }
      const controller = new AbortController();
      running = controller;
      picker.busy = true;
      const items: SearchPickItem[] = [];
      let flushTimer: NodeJS.Timeout | undefined;
      const flush = () => {
        flushTimer = undefined;
        if (gen === generation) picker.items = [...items];
      };
      try {
        const list = await targets;
        if (controller.signal.aborted) return;
        const now = Date.now();
        const result = await runSearch(deps, list, query, {
          signal: controller.signal,
          onResult: (hit) => {
            items.push(hitItem(hit, now));
            flushTimer ??= setTimeout(flush, FLUSH_MS);
          },
        });
        clearTimeout(flushTimer);
        if (gen !== generation || result.cancelled) return;
        picker.items = finalItems(items, result);
      } catch (error) {
        clearTimeout(flushTimer);
        deps.log.error(`search failed: ${errorText(error)}`);
        if (gen === generation) picker.items = [infoItem(`$(error) ${vscode.l10n.t('The search failed: {0}', errorText(error))}`)];
      } finally {
        if (gen === generation) picker.busy = false;
      }
    };

    picker.onDidChangeValue((value) => {
      clearTimeout(timer);
      if (value === lastQuery) return; // our own prefill echoed back
      running?.abort();
      generation++; // the cancelled search must not touch the list any more
      lastQuery = undefined;
      picker.busy = value.trim() !== '';
      timer = setTimeout(() => void start(value), SEARCH_DEBOUNCE_MS);
    });
    picker.onDidAccept(() => {
      const item = picker.selectedItems[0] ?? picker.activeItems[0];
      if (!item?.hit || picked) return; // informational rows do nothing
      picked = true;
      const hit = item.hit;
      picker.hide();
      openHit(deps, hit).then(
        (open) => resolve({ status: 'picked', hit, open }),
        (error) => {
          deps.log.error(`opening a search hit failed: ${errorText(error)}`);
          resolve({ status: 'failed', message: errorText(error) });
        },
      );
    });
    picker.onDidHide(() => {
      clearTimeout(timer);
      running?.abort();
      generation++;
      picker.dispose();
      if (!picked) resolve({ status: 'dismissed' });
    });
    picker.value = initialQuery;
    picker.show();
    if (initialQuery.trim() !== '') void start(initialQuery);
  });
}

export async function run(deps: SurfaceDeps, args?: SearchSessionsArgs): Promise<SearchSessionsOutcome> {
  const query = typeof args?.query === 'string' ? args.query : '';
  if (typeof args?.choose === 'function') {
    try {
      const result = await search(deps, query);
      const hit = args.choose(result.hits);
      if (!hit) return { status: 'dismissed' };
      return { status: 'picked', hit, open: await openHit(deps, hit) };
    } catch (error) {
      return { status: 'failed', message: errorText(error) };
    }
  }
  return showSearchPicker(deps, query);
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (args?: SearchSessionsArgs) => run(deps, args && typeof args === 'object' ? args : undefined));
}
