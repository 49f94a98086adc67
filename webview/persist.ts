// What survives the view being hidden and shown again (VS Code discards the webview's DOM): the input
// text, the scroll position (as an anchor: the entry at the top of the viewport, see scroll-anchor.ts),
// whether the in-panel tree is open, and the prompt history for Up.
import { parseAnchor, type ScrollAnchor } from './scroll-anchor';

export interface PersistedUi {
  input: string;
  /** true when the user was at the bottom (follow new messages) */
  atBottom: boolean;
  /** where the user was scrolled to when not at the bottom */
  anchor?: ScrollAnchor;
  treeOpen: boolean;
  /** how the in-panel tree shows the conversation (render/tree.ts) */
  treeMode?: 'list' | 'graph';
  history: string[];
  /** the session the chat shows: an editor tab reopens it after a reload (the host reads this state) */
  sessionFile?: string;
}

/** The part of the webview API (acquireVsCodeApi) that keeps state across re-creations. */
export interface StateApi {
  getState(): unknown;
  setState(state: unknown): void;
}

const defaults: PersistedUi = { input: '', atBottom: true, treeOpen: false, history: [] };

/**
 * Reads the saved state, keeping only well-formed fields. State saved before anchors existed (a `scrollTop`
 * of the old loaded range) has no anchor: such a view opens at the bottom.
 */
export function loadPersisted(api: Pick<StateApi, 'getState'>): PersistedUi {
  const raw = api.getState() as Partial<Record<keyof PersistedUi, unknown>> | undefined;
  if (!raw || typeof raw !== 'object') return { ...defaults };
  const anchor = parseAnchor(raw.anchor);
  return {
    input: typeof raw.input === 'string' ? raw.input : '',
    atBottom: raw.atBottom !== false || !anchor,
    ...(anchor ? { anchor } : {}),
    treeOpen: raw.treeOpen === true,
    ...(raw.treeMode === 'list' || raw.treeMode === 'graph' ? { treeMode: raw.treeMode } : {}),
    history: Array.isArray(raw.history) ? raw.history.filter((h): h is string => typeof h === 'string').slice(-50) : [],
    ...(typeof raw.sessionFile === 'string' && raw.sessionFile !== '' ? { sessionFile: raw.sessionFile } : {}),
  };
}

/** Saves at most every 250 ms: scrolling calls this per frame. `saved` is told what was saved. */
export function createSaver(api: Pick<StateApi, 'setState'>, current: () => PersistedUi, saved?: (ui: PersistedUi) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const ui = current();
      api.setState(ui);
      saved?.(ui);
    }, 250);
  };
}
