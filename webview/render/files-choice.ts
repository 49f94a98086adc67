// The files part of the branch-switch dialog (issue #15): "Conversation and files" (checked when the two
// points' file states differ, or with arbor.checkpoints.restore = always) or "Conversation only", the
// count and list of files that will change, "Show changes", and one checkbox per file changed outside
// Arbor (unticked: kept), the protected files apart under a warning (git hooks, editor settings, agent
// instructions: unticked, whatever arbor.checkpoints.restore says), and the files that cannot be
// restored with the reason. Hidden until the host's
// `filesPreview` for the dialog's target arrives, and when no file is concerned; in Restricted Mode it
// only says that files are not restored. Every word comes from the host (localized there).
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

function radio(id: string): { input: HTMLInputElement; row: HTMLElement; label: HTMLElement } {
  const input = el('input', { type: 'radio', name: 'switch-files', id }) as HTMLInputElement;
  const label = el('span', {});
  return { input, row: el('label', { class: 'files-option', for: id }, input, label), label };
}

export function createFilesChoice(showChanges: () => void): FilesChoice {
  const restore = radio('switch-files-restore');
  const keep = radio('switch-files-keep');
  const summary = el('span', { class: 'files-summary', id: 'switch-files-summary' });
  const show = el('vscode-link', { id: 'switch-files-show', href: '#' });
  const list = el('ul', { class: 'files-list', id: 'switch-files-list' });
  const outside = el('div', { class: 'files-outside', id: 'switch-files-outside' });
  const guarded = el('div', { class: 'files-protected', id: 'switch-files-protected', role: 'group' });
  const refused = el('div', { class: 'files-refused', id: 'switch-files-not-restorable' });
  const note = el('p', { class: 'files-note', id: 'switch-files-note' });
  const options = el('div', { class: 'files-options', role: 'radiogroup' }, restore.row, keep.row);
  const details = el('div', { class: 'files-details' }, el('div', { class: 'files-heading' }, summary, show), list, outside, guarded);
  const legend = el('legend', {});
  const root = el('fieldset', { class: 'dialog-files', id: 'switch-files', hidden: true }, legend, options, details, refused, note);
  let current: FilesPreviewMessage | undefined;

  show.addEventListener('click', (event) => {
    event.preventDefault();
    showChanges();
  });
  const sync = () => (details.hidden = !restore.input.checked);
  restore.input.addEventListener('change', sync);
  keep.input.addEventListener('change', sync);

  function renderWords(text: FilesPreviewMessage['text']): void {
    legend.textContent = text.legend;
    options.setAttribute('aria-label', text.legend);
    restore.label.textContent = text.restore;
    keep.label.textContent = text.keep;
    show.textContent = text.show;
    summary.textContent = text.summary;
  }

  function renderFiles(preview: FilesPreviewMessage): void {
    const { text } = preview;
    const rows = preview.changes.slice(0, SHOWN_FILES).map((c) => el('li', { 'data-change': c.change }, el('span', { class: 'files-key' }, c.key), el('span', { class: 'files-change' }, text[c.change])));
    if (preview.changes.length > SHOWN_FILES) rows.push(el('li', { class: 'files-more' }, text.more.replace('{0}', String(preview.changes.length - SHOWN_FILES))));
    list.replaceChildren(...rows);
    outside.replaceChildren(...(preview.outside.length ? [el('p', {}, text.outside), ...preview.outside.map(outsideRow)] : []));
    renderProtected(preview);
  }

  /** Protected files: a warning, then one unticked checkbox per file with the rule it falls under. */
  function renderProtected(preview: FilesPreviewMessage): void {
    if (preview.protected.length === 0) return void guarded.replaceChildren();
    const warning = el('p', { id: 'switch-files-protected-warning' }, preview.text.protected);
    guarded.setAttribute('aria-labelledby', 'switch-files-protected-warning');
    guarded.replaceChildren(warning, ...preview.protected.map(protectedRow));
  }

  function protectedRow(file: { key: string; rule: string }, index: number): HTMLElement {
    const id = `switch-files-protected-${index}`;
    const box = el('input', { type: 'checkbox', id, 'data-key': file.key }) as HTMLInputElement;
    box.checked = false;
    return el('label', { class: 'files-option', for: id }, box, el('span', { class: 'files-key' }, file.key), el('span', { class: 'files-change' }, file.rule));
  }

  /** The files that cannot be restored, shown whatever the choice (the user should know). */
  function renderRefused(preview: FilesPreviewMessage): void {
    const items = preview.notRestorable.map((n) => el('li', {}, el('span', { class: 'files-key' }, n.key), el('span', { class: 'files-change' }, n.reason)));
    refused.replaceChildren(...(items.length && preview.restorable ? [el('p', {}, preview.text.notRestorable), el('ul', { class: 'files-list' }, ...items)] : []));
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
      const work = preview.changes.length + preview.outside.length + preview.protected.length > 0;
      root.hidden = (!work && preview.notRestorable.length === 0) || preview.mode === 'never';
      renderWords(preview.text);
      renderRefused(preview);
      options.hidden = details.hidden = !preview.restorable || !work;
      note.textContent = preview.restorable ? '' : preview.text.restricted;
      if (!work || !preview.restorable) return;
      renderFiles(preview);
      restore.input.checked = preview.differ || preview.mode === 'always';
      keep.input.checked = !restore.input.checked;
      sync();
    },
    choice() {
      if (!current) return undefined;
      if (!current.restorable || current.mode === 'never' || !restore.input.checked) return { restore: false, overwrite: [] };
      const boxes = [...outside.querySelectorAll<HTMLInputElement>('input[type=checkbox]'), ...guarded.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
      const ticked = boxes.filter((box) => box.checked);
      return { restore: true, overwrite: ticked.map((box) => box.dataset.key!) };
    },
  };
}
