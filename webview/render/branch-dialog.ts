// The branch-switch dialog: No summary / Summarize / Summarize with my instructions, then a progress state
// with Cancel (Esc) while the host summarizes; a failure or cancel is shown and the user stays where they
// were. Focus is trapped while open and returns to where it was. The files choice (files-choice.ts) is
// asked for when the dialog opens and sent with the navigation.
import type { FilesPreviewMessage, NavigateFiles, NavigationMode } from '../../src/protocol';
import { el } from '../dom';
import { createFilesChoice } from './files-choice';
import type { NavigationStatus } from '../store';
import { t } from '../l10n';

export interface DialogActions {
  navigate(targetId: string, mode: NavigationMode, instructions?: string, files?: NavigateFiles): void;
  cancel(): void;
  /** asks the host which files a switch to `targetId` would change (answered with `filesPreview`) */
  previewFiles(targetId: string): void;
  showFileChanges(targetId: string): void;
  /** the in-panel tree's other context actions on a node of the current branch */
  pin(targetId: string, pinned: boolean): void;
  summarizeFromHere(targetId: string): void;
}

/** What else the in-panel tree offers on the node (absent: switching only, as from a message). */
export interface NodeActions {
  /** undefined: the node cannot be pinned; else whether it is pinned now */
  pinned?: boolean;
  /** the node is on the current branch (Summarize from here) */
  onPath: boolean;
}

export interface BranchDialog {
  root: HTMLElement;
  open(targetId: string, preview: string, isUserMessage: boolean, nodeActions?: NodeActions): void;
  close(): void;
  readonly isOpen: boolean;
  progress(status: NavigationStatus | undefined): void;
  filesPreview(preview: FilesPreviewMessage): void;
}

export function createBranchDialog(actions: DialogActions): BranchDialog {
  const heading = el('h2', { id: 'branch-dialog-title' }, t('Switch to this point?'));
  const preview = el('p', { class: 'dialog-preview', id: 'branch-dialog-preview' });
  const explain = el('p', { class: 'dialog-explain' });
  // No summary is the default, as in the Session Tree's switch (commands/branch-switch.ts)
  const none = el('vscode-button', { appearance: 'primary', id: 'switch-none', 'data-mode': 'none' }, t('No summary'));
  const summarize = el('vscode-button', { appearance: 'secondary', id: 'switch-summarize', 'data-mode': 'summarize' }, t('Summarize'));
  const custom = el('vscode-button', { appearance: 'secondary', id: 'switch-custom', 'data-mode': 'custom' }, t('Summarize with my instructions…'));
  const instructions = el('vscode-text-area', { id: 'switch-instructions', rows: '3', placeholder: t('What should the summary focus on?'), 'aria-label': t('Summary instructions') }) as HTMLElement & { value: string };
  const go = el('vscode-button', { appearance: 'primary', id: 'switch-custom-go' }, t('Summarize and switch'));
  const customBox = el('div', { class: 'dialog-custom', hidden: true }, instructions, go);
  const choices = el('div', { class: 'dialog-choices' }, none, summarize, custom);
  const spinner = el('vscode-progress-ring', { class: 'dialog-ring' });
  const progressText = el('span', { id: 'switch-progress-text' }, t('Summarizing the branch you are leaving…'));
  const cancel = el('vscode-button', { appearance: 'secondary', id: 'switch-cancel' }, t('Cancel (Esc)'));
  const progress = el('div', { class: 'dialog-progress', hidden: true, role: 'status' }, spinner, progressText, cancel);
  const files = createFilesChoice(() => actions.showFileChanges(target));
  const result = el('div', { class: 'dialog-result', role: 'alert', hidden: true });
  const close = el('vscode-button', { appearance: 'secondary', id: 'switch-close' }, t('Close'));
  const pin = el('vscode-button', { appearance: 'secondary', id: 'tree-pin' }, t('Pin'));
  const stage = el('vscode-button', { appearance: 'secondary', id: 'tree-summarize-from-here' }, t('Summarize from here…'));
  const more = el('div', { class: 'dialog-more', role: 'group', 'aria-label': t('Other actions on this entry') }, pin, stage);
  const footer = el('div', { class: 'dialog-footer' }, more, close);
  const box = el('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'branch-dialog-title', id: 'branch-dialog' }, heading, preview, explain, files.root, choices, customBox, progress, result, footer);
  const root = el('div', { class: 'dialog-backdrop', hidden: true }, box);

  let target = '';
  let pinned = false;
  let summarizing = false;
  let returnFocus: HTMLElement | null = null;

  function setPhase(phase: 'choose' | 'progress' | 'result'): void {
    choices.hidden = phase !== 'choose';
    files.root.classList.toggle('dialog-files-done', phase !== 'choose');
    customBox.hidden = true;
    progress.hidden = phase !== 'progress';
    result.hidden = phase !== 'result';
    footer.hidden = phase === 'progress';
    more.hidden ||= phase !== 'choose';
    summarizing = phase === 'progress';
  }

  function showNodeActions(node: NodeActions | undefined): void {
    pin.hidden = node?.pinned === undefined || !node.onPath;
    pin.textContent = node?.pinned ? t('Unpin') : t('Pin');
    pinned = node?.pinned === true;
    stage.hidden = !node?.onPath;
    more.hidden = pin.hidden && stage.hidden;
  }

  function choose(mode: NavigationMode): void {
    if (mode === 'custom') {
      customBox.hidden = false;
      instructions.focus();
      return;
    }
    actions.navigate(target, mode, undefined, files.choice());
    if (mode === 'none') api.close();
    else setPhase('progress');
  }

  none.addEventListener('click', () => choose('none'));
  summarize.addEventListener('click', () => choose('summarize'));
  custom.addEventListener('click', () => choose('custom'));
  go.addEventListener('click', () => {
    const text = instructions.value.trim();
    actions.navigate(target, 'custom', text || undefined, files.choice());
    setPhase('progress');
  });
  cancel.addEventListener('click', () => actions.cancel());
  pin.addEventListener('click', () => {
    actions.pin(target, !pinned);
    api.close();
  });
  stage.addEventListener('click', () => {
    actions.summarizeFromHere(target);
    api.close();
  });
  close.addEventListener('click', () => api.close());
  root.addEventListener('mousedown', (event) => {
    if (event.target === root && !summarizing) api.close();
  });
  root.addEventListener('keydown', (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (summarizing) actions.cancel();
      else api.close();
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !customBox.hidden) {
      event.preventDefault();
      go.click();
      return;
    }
    if (event.key === 'Tab') {
      // Keep focus inside the dialog.
      const focusables = [...box.querySelectorAll<HTMLElement>('vscode-button, vscode-text-area, vscode-link, input')].filter((e) => e.offsetParent !== null);
      if (focusables.length === 0) return;
      const index = focusables.indexOf(document.activeElement as HTMLElement);
      const next = event.shiftKey ? (index <= 0 ? focusables.length - 1 : index - 1) : (index + 1) % focusables.length;
      event.preventDefault();
      focusables[next]!.focus();
    }
  });

  const api: BranchDialog = {
    root,
    get isOpen() {
      return !root.hidden;
    },
    open(targetId, previewText, isUserMessage, nodeActions) {
      target = targetId;
      showNodeActions(nodeActions);
      returnFocus = document.activeElement as HTMLElement | null;
      preview.textContent = previewText;
      explain.textContent = isUserMessage
        ? t('You go back to just before this message; its text is put in the input to edit and resend. The branch you leave stays in the tree.')
        : t('The conversation continues from this point. The branch you leave stays in the tree; a summary carries what it learned into the new position.');
      instructions.value = '';
      files.reset();
      actions.previewFiles(targetId);
      setPhase('choose');
      root.hidden = false;
      none.focus();
    },
    close() {
      root.hidden = true;
      summarizing = false;
      returnFocus?.focus?.();
    },
    filesPreview(message) {
      if (message.targetId === target && !root.hidden) files.show(message);
    },
    progress(status) {
      if (!status || status.targetId !== target || root.hidden) return;
      if (status.state === 'summarizing') {
        setPhase('progress');
        progressText.textContent = status.message ?? t('Summarizing the branch you are leaving…');
      } else if (status.state === 'done') {
        api.close();
      } else {
        setPhase('result');
        result.textContent =
          status.state === 'cancelled'
            ? `${t('Summary cancelled. You are still where you were.')}${status.message ? ` ${status.message}` : ''}`
            : t('The summary failed: {0}. You are still where you were.', status.message ?? t('unknown error'));
        close.focus();
      }
    },
  };
  return api;
}
