// @-mention completion in the composer: typing "@" and part of a path asks the host for matching workspace
// files (`findFiles`, answered by `fileMatches`, which main.ts passes on as an `arbor:fileMatches` event)
// and lists them over the input; Up/Down choose, Enter or Tab inserts "@path ", Escape closes. Its keys are
// taken in the capture phase, so the composer's Enter-to-send does not fire while the list is open.
import type { WebviewToHostMessage } from '../../src/protocol';
import { el } from '../dom';
import { t } from '../l10n';

type TextInput = HTMLElement & { value: string };

/** "@query" right at the end of the text before the cursor (a mention being typed) */
const TYPING = /(?:^|\s)@([^\s@]*)$/;

export interface FileMatchesEvent {
  seq: number;
  files: string[];
}

export function installMentionCompletion(input: TextInput, wrap: HTMLElement, post: (message: WebviewToHostMessage) => void, setText: (text: string) => void): void {
  const list = el('ul', { class: 'suggest mention-suggest', id: 'mention-suggestions', role: 'listbox', 'aria-label': t('Workspace files'), hidden: true });
  wrap.prepend(list);
  let seq = Math.floor(Math.random() * 2 ** 30);
  let files: string[] = [];
  let selected = 0;
  let query: string | undefined;

  const caretText = () => {
    const control = (input as { control?: HTMLTextAreaElement }).control;
    const end = control?.selectionEnd ?? input.value.length;
    return input.value.slice(0, end);
  };
  const close = () => {
    query = undefined;
    list.hidden = true;
  };
  const render = () => {
    list.hidden = files.length === 0 || query === undefined;
    list.replaceChildren(...files.map((f, i) => el('li', { role: 'option', 'aria-selected': String(i === selected), class: i === selected ? 'selected' : '', 'data-file': f }, el('span', { class: 'cmd' }, `@${f}`))));
  };
  const pick = (index: number) => {
    const file = files[index];
    if (!file || query === undefined) return;
    const before = caretText();
    const after = input.value.slice(before.length);
    setText(`${before.slice(0, before.length - query.length)}${file} ${after.replace(/^\s+/, '')}`);
    close();
    input.focus();
  };

  input.addEventListener('input', () => {
    const typing = TYPING.exec(caretText());
    if (!typing) return close();
    query = typing[1]!;
    seq = (seq + 1) % 2_147_483_647;
    post({ type: 'findFiles', seq, query: query.slice(0, 1000) });
  });
  window.addEventListener('arbor:fileMatches', (event) => {
    const answer = (event as CustomEvent<FileMatchesEvent>).detail;
    if (answer.seq !== seq || query === undefined) return;
    files = answer.files;
    selected = 0;
    render();
  });
  list.addEventListener('mousedown', (event) => {
    const item = (event.target as HTMLElement).closest('li');
    if (!item) return;
    event.preventDefault();
    pick([...list.children].indexOf(item));
  });
  wrap.addEventListener(
    'keydown',
    (event: KeyboardEvent) => {
      if (list.hidden || event.isComposing) return;
      const keys: Record<string, () => void> = {
        ArrowDown: () => (selected = (selected + 1) % files.length),
        ArrowUp: () => (selected = (selected + files.length - 1) % files.length),
        Enter: () => pick(selected),
        Tab: () => pick(selected),
        Escape: close,
      };
      const act = keys[event.key];
      if (!act || (event.key === 'Enter' && event.shiftKey)) return;
      event.preventDefault();
      event.stopPropagation();
      act();
      if (!list.hidden) render();
    },
    true,
  );
}
