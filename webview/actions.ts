// Delegated handling of every data-action button in the conversation (message actions, code blocks,
// tool approvals, markers, notices): one listener, so re-rendered rows never carry stale handlers.
import type { ConversationItem, WebviewToHostMessage } from '../src/protocol';
import { icon } from './icons';
import { showAsMarkdown } from './markdown';
import type { Store } from './store';
import { t } from './l10n';

export interface ActionDeps {
  store: Store;
  post(message: WebviewToHostMessage): void;
  /** the "Load earlier messages" row above the conversation */
  loadEarlier(): void;
  open: Set<string>;
  /** deny notes by tool call id (kept across card re-renders) */
  notes: Map<string, string>;
  rerender(entryId: string): void;
  /** Edit on a user message: the message becomes an editor in place (branch-actions.ts) */
  startEdit(entryId: string): void;
  dismissNotice(id: number): void;
}

export function itemText(item: ConversationItem): string {
  switch (item.kind) {
    case 'user':
    case 'custom_message':
    case 'notice':
    case 'toolResult':
      return item.text;
    case 'assistant':
      return item.blocks.map((b) => (b.type === 'text' ? b.text : '')).filter(Boolean).join('\n\n');
    case 'compaction':
    case 'branch_summary':
      return item.summary;
    case 'bash':
      return `$ ${item.command}\n${item.output}`;
  }
}

function startLabelEdit(target: HTMLElement, item: ConversationItem, deps: ActionDeps): void {
  const article = target.closest<HTMLElement>('[data-entry]');
  const head = article?.querySelector<HTMLElement>('.msg-head');
  if (!head || head.querySelector('.label-input')) return;
  const input = document.createElement('input');
  input.className = 'label-input';
  input.value = item.label ?? '';
  input.placeholder = t('Label (empty removes it)');
  input.maxLength = 200;
  input.setAttribute('aria-label', t('Label for this entry; Enter saves, Escape cancels'));
  head.insertBefore(input, head.querySelector('.when'));
  input.focus();
  let done = false;
  const finish = (save: boolean) => {
    if (done) return;
    done = true;
    const value = input.value.trim();
    input.remove();
    if (save && value !== (item.label ?? '')) deps.post({ type: 'label', entryId: item.entryId, ...(value ? { label: value } : {}) });
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  });
  input.addEventListener('blur', () => finish(false));
}

export function installActions(root: HTMLElement, deps: ActionDeps): void {
  const find = (id: string) => deps.store.items.find((i) => i.entryId === id);
  root.addEventListener('click', (event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!target || !root.contains(target)) return;
    const id = target.dataset.id ?? '';
    const action = target.dataset.action;
    const item = find(id);
    switch (action) {
      case 'copyCode':
      case 'insertCode': {
        const code = target.closest('.code-block')?.querySelector('code')?.textContent ?? '';
        deps.post(action === 'copyCode' ? { type: 'copy', text: code } : { type: 'insertAtCursor', code });
        if (action === 'copyCode') flash(target, t('Copied'));
        return;
      }
      case 'showMarkdown': {
        const body = target.closest<HTMLElement>('.markdown');
        const text = body?.querySelector('.plain-markdown')?.textContent;
        if (body && typeof text === 'string') showAsMarkdown(body, text);
        return;
      }
      case 'copyEntry':
        if (item) deps.post({ type: 'copy', text: itemText(item) });
        flash(target, t('Copied'));
        return;
      case 'edit':
        if (item?.kind === 'user') deps.startEdit(id);
        return;
      case 'branch':
        // The leaf becomes this entry itself (a user message keeps its place; its reply leaves the path).
        if (item && item.entryId !== deps.store.leafId) deps.post({ type: 'branchHere', entryId: id });
        else if (item) deps.store.addNotice('info', t('This is already where your next message continues.'));
        return;
      case 'label':
        if (item) startLabelEdit(target, item, deps);
        return;
      case 'pin':
        if (item) deps.post({ type: 'pin', entryId: id, pinned: !item.pinned });
        return;
      case 'summarizeFromHere':
        if (item) deps.post({ type: 'summarizeFromHere', entryId: id });
        return;
      case 'toggleMarker': {
        if (deps.open.has(id)) deps.open.delete(id);
        else deps.open.add(id);
        const entryId = id.replace(/^marker:/, '');
        deps.rerender(entryId);
        // Keep keyboard focus on the toggle after the re-render.
        root.querySelector<HTMLElement>(`[data-entry="${CSS.escape(entryId)}"] .marker-line`)?.focus();
        return;
      }
      case 'showOriginal':
        deps.post({ type: 'showOriginal', compactionId: id });
        return;
      case 'showStageOriginals':
        // the originals' leaf (a branch beside the summary): a switch like any other, no summary
        deps.post({ type: 'navigate', targetId: id, mode: 'none' });
        return;
      case 'continueBefore':
        deps.post({ type: 'continueBeforeCompaction', compactionId: id });
        return;
      case 'approve':
      case 'approveAlways':
        deps.post({ type: 'approve', toolCallId: id, ...(action === 'approveAlways' ? { always: true } : {}) });
        return;
      case 'deny':
        deny(root, deps, id);
        return;
      case 'openDiff':
        deps.post({ type: 'openDiff', toolCallId: id });
        return;
      case 'dismissNotice':
        deps.dismissNotice(Number(id));
        return;
      case 'continueReply':
        deps.dismissNotice(Number(id));
        deps.post({ type: 'continueReply' });
        return;
      case 'setApiKey':
        deps.post({ type: 'setApiKey', ...(target.dataset.provider ? { provider: target.dataset.provider } : {}) });
        return;
      case 'openSettings':
        if (target.dataset.setting) deps.post({ type: 'openSettings', setting: target.dataset.setting });
        return;
      case 'loadEarlier':
        deps.loadEarlier();
        return;
    }
  });
  root.addEventListener('input', (event) => {
    const input = event.target as HTMLInputElement;
    const id = input.dataset?.denyNote;
    if (id) deps.notes.set(id, input.value);
  });
  root.addEventListener('keydown', (event) => {
    const input = event.target as HTMLInputElement;
    const id = input.dataset?.denyNote;
    if (id && event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      deny(root, deps, id);
    }
  });
  // <details> open state survives re-renders (virtualization unmounts rows).
  root.addEventListener(
    'toggle',
    (event) => {
      const details = event.target as HTMLElement;
      const key = details.dataset?.key;
      if (!key) return;
      if ((details as HTMLDetailsElement).open) deps.open.add(key);
      else deps.open.delete(key);
    },
    true,
  );
}

/** Denies a pending call, with the note typed in its card (if any) as feedback for the model. */
function deny(root: HTMLElement, deps: ActionDeps, toolCallId: string): void {
  const input = root.querySelector<HTMLInputElement>(`input[data-deny-note="${CSS.escape(toolCallId)}"]`);
  const feedback = (input?.value ?? deps.notes.get(toolCallId) ?? '').trim().slice(0, 20_000);
  deps.notes.delete(toolCallId);
  deps.post({ type: 'deny', toolCallId, ...(feedback ? { feedback } : {}) });
}

/** Confirms an action on its button: a text button shows `text`, an icon button a check mark. */
function flash(button: HTMLElement, text: string): void {
  if (button.classList.contains('icon-btn')) {
    if (button.classList.contains('flashed')) return;
    const label = button.getAttribute('aria-label') ?? '';
    const title = button.title;
    const glyph = button.firstElementChild;
    // the check mark and a visible word, so the copy is seen (and heard: the name changes) at once
    const word = document.createElement('span');
    word.className = 'flash-text';
    word.textContent = text;
    button.classList.add('flashed');
    button.setAttribute('aria-label', text);
    button.title = text;
    if (glyph) glyph.replaceWith(icon('check'));
    button.append(word);
    setTimeout(() => {
      button.classList.remove('flashed');
      button.setAttribute('aria-label', label);
      button.title = title;
      word.remove();
      if (glyph) button.firstElementChild?.replaceWith(glyph);
    }, 1500);
    return;
  }
  const before = button.textContent;
  if (before === text) return;
  button.textContent = text;
  setTimeout(() => (button.textContent = before), 1200);
}
