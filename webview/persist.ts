// What survives the view being hidden and shown again (VS Code discards the webview's DOM): the input
// text, the scroll position, whether the in-panel tree is open, and the prompt history for Up.
export interface PersistedUi {
  input: string;
  scrollTop: number;
  /** true when the user was at the bottom (follow new messages) */
  atBottom: boolean;
  treeOpen: boolean;
  history: string[];
}

const defaults: PersistedUi = { input: '', scrollTop: 0, atBottom: true, treeOpen: false, history: [] };

export function loadPersisted(api: VsCodeWebviewApi): PersistedUi {
  const raw = api.getState() as Partial<PersistedUi> | undefined;
  if (!raw || typeof raw !== 'object') return { ...defaults };
  return {
    input: typeof raw.input === 'string' ? raw.input : '',
    scrollTop: typeof raw.scrollTop === 'number' && Number.isFinite(raw.scrollTop) ? raw.scrollTop : 0,
    atBottom: raw.atBottom !== false,
    treeOpen: raw.treeOpen === true,
    history: Array.isArray(raw.history) ? raw.history.filter((h): h is string => typeof h === 'string').slice(-50) : [],
  };
}

/** Saves at most every 250 ms: scrolling calls this per frame. */
export function createSaver(api: VsCodeWebviewApi, current: () => PersistedUi): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      api.setState(current());
    }, 250);
  };
}
