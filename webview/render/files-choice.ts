// The files part of the branch-switch dialog (issue #15): "Conversation and files" (checked when the two
// points' file states differ, or with arbor.checkpoints.restore = always) or "Conversation only", the
// count and list of files that will change, "Show changes", and one checkbox per file changed outside
// Arbor (unticked: kept). Hidden until the host's `filesPreview` for the dialog's target arrives, and
// when there is nothing to restore; in Restricted Mode it only says that files are not restored.
import type { FilesPreviewMessage, NavigateFiles } from '../../src/protocol';
import { el } from '../dom';

const SHOWN_FILES = 8;

export interface FilesChoice {
  root: HTMLElement;
  /** forgets the previous preview (a new dialog) */
  reset(): void;
  show(preview: FilesPreviewMessage): void;
  /** the choice to send with `navigate`; undefined before the preview arrived (the host then asks) */
  choice(): NavigateFiles | undefined;
}

function radio(id: string, label: string): { input: HTMLInputElement; row: HTMLElement } {
  const input = el('input', { type: 'radio', name: 'switch-files', id }) as HTMLInputElement;
  return { input, row: el('label', { class: 'files-option', for: id }, input, label) };
}

export function createFilesChoice(showChanges: () => void): FilesChoice {
  const restore = radio('switch-files-restore', 'Conversation and files');
  const keep = radio('switch-files-keep', 'Conversation only');
  const summary = el('span', { class: 'files-summary', id: 'switch-files-summary' });
  const show = el('vscode-link', { id: 'switch-files-show', href: '#' }, 'Show changes');
  const list = el('ul', { class: 'files-list', id: 'switch-files-list' });
  const outside = el('div', { class: 'files-outside', id: 'switch-files-outside' });
  const note = el('p', { class: 'files-note', id: 'switch-files-note' });
  const options = el('div', { class: 'files-options', role: 'radiogroup', 'aria-label': 'Files' }, restore.row, keep.row);
  const details = el('div', { class: 'files-details' }, el('div', { class: 'files-heading' }, summary, show), list, outside);
  const root = el('fieldset', { class: 'dialog-files', id: 'switch-files', hidden: true }, el('legend', {}, 'Files'), options, details, note);
  let current: FilesPreviewMessage | undefined;

  show.addEventListener('click', (event) => {
    event.preventDefault();
    showChanges();
  });
  const sync = () => (details.hidden = !restore.input.checked);
  restore.input.addEventListener('change', sync);
  keep.input.addEventListener('change', sync);

  function renderFiles(preview: FilesPreviewMessage): void {
    const count = preview.changes.length + preview.outside.length;
    summary.textContent = count === 1 ? '1 file will change' : `${count} files will change`;
    const rows = preview.changes.slice(0, SHOWN_FILES).map((c) => el('li', { 'data-change': c.change }, el('span', { class: 'files-key' }, c.key), el('span', { class: 'files-change' }, c.change)));
    if (preview.changes.length > SHOWN_FILES) rows.push(el('li', { class: 'files-more' }, `and ${preview.changes.length - SHOWN_FILES} more`));
    list.replaceChildren(...rows);
    outside.replaceChildren(...(preview.outside.length ? [el('p', {}, 'Changed outside Arbor — tick to overwrite, otherwise kept:'), ...preview.outside.map(outsideRow)] : []));
  }

  function outsideRow(key: string, index: number): HTMLElement {
    const id = `switch-files-outside-${index}`;
    return el('label', { class: 'files-option', for: id }, el('input', { type: 'checkbox', id, 'data-key': key }), el('span', { class: 'files-key' }, key));
  }

  return {
    root,
    reset() {
      current = undefined;
      root.hidden = true;
    },
    show(preview) {
      current = preview;
      const work = preview.changes.length + preview.outside.length > 0;
      root.hidden = !work || preview.mode === 'never';
      options.hidden = details.hidden = !preview.restorable;
      note.textContent = preview.restorable ? '' : 'Files are not restored in Restricted Mode; only the conversation moves.';
      if (!work || !preview.restorable) return;
      renderFiles(preview);
      restore.input.checked = preview.differ || preview.mode === 'always';
      keep.input.checked = !restore.input.checked;
      sync();
    },
    choice() {
      if (!current) return undefined;
      if (!current.restorable || current.mode === 'never' || !restore.input.checked) return { restore: false, overwrite: [] };
      const ticked = [...outside.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].filter((box) => box.checked);
      return { restore: true, overwrite: ticked.map((box) => box.dataset.key!) };
    },
  };
}
