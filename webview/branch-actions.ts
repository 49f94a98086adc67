// The actions of the branch switcher, the in-place edit and Retry (render/branch-nav.ts draws them): one
// delegated listener per event type, like actions.ts. Switching to an alternative goes to the newest entry
// of its branch through the usual switch (the summary dialog when branch summaries are on); Save & send
// posts `editMessage` (a new branch, no dialog); Retry posts `retryReply`.
import type { WebviewToHostMessage } from '../src/protocol';
import type { RowExtras } from './render/branch-nav';
import { userText } from './render/user-body';
import type { Store } from './store';

export interface BranchActionDeps extends RowExtras {
  store: Store;
  post(message: WebviewToHostMessage): void;
  rerender(entryId: string): void;
  /** the usual switch to an entry (dialog or direct), then `revealAfter` is scrolled to once the leaf moved */
  switchTo(targetId: string, preview: string, isUserMessage: boolean, revealAfter: string): void;
}

function step(deps: BranchActionDeps, entryId: string, by: number): void {
  const index = deps.siblings();
  const siblings = index.siblingsOf(entryId);
  const target = siblings?.ids[siblings.index + by];
  if (!target) return;
  const tip = index.tipOf(target);
  const node = deps.store.tree.find((n) => n.id === tip);
  deps.switchTo(tip, node?.preview ?? '', index.kindOf(tip) === 'user', target);
}

export function startEdit(deps: BranchActionDeps, root: HTMLElement, entryId: string): void {
  const item = deps.store.items.find((i) => i.entryId === entryId);
  if (item?.kind !== 'user') return;
  if (!deps.editing.has(entryId)) deps.editing.set(entryId, userText(item));
  deps.rerender(entryId);
  const input = root.querySelector<HTMLTextAreaElement>(`textarea[data-edit="${CSS.escape(entryId)}"]`);
  input?.focus({ preventScroll: true });
  input?.setSelectionRange(input.value.length, input.value.length);
  // the whole editor, buttons included, in view and clear of the "Jump to latest" pill (its scroll margin)
  input?.closest('.inline-edit')?.scrollIntoView({ block: 'nearest' });
}

function finishEdit(deps: BranchActionDeps, root: HTMLElement, entryId: string, send: boolean): void {
  const text = (deps.editing.get(entryId) ?? '').trim();
  // blank text is sent only for a message with images (they go again, alone)
  const item = deps.store.items.find((i) => i.entryId === entryId);
  if (send && text === '' && !(item?.kind === 'user' && (item.images?.shown.length ?? 0) > 0)) return;
  deps.editing.delete(entryId);
  deps.rerender(entryId);
  if (send) deps.post({ type: 'editMessage', entryId, text });
  else root.querySelector<HTMLElement>(`[data-entry="${CSS.escape(entryId)}"] [data-action="edit"]`)?.focus();
}

export function installBranchActions(root: HTMLElement, deps: BranchActionDeps): void {
  root.addEventListener('click', (event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!target || !root.contains(target) || target.hasAttribute('disabled')) return;
    const id = target.dataset.id ?? '';
    switch (target.dataset.action) {
      case 'siblingPrev':
        return step(deps, id, -1);
      case 'siblingNext':
        return step(deps, id, 1);
      case 'saveEdit':
        return finishEdit(deps, root, id, true);
      case 'cancelEdit':
        return finishEdit(deps, root, id, false);
      case 'retry':
        deps.post({ type: 'retryReply', entryId: id });
        return;
      case 'retryWith':
        deps.post({ type: 'retryReply', entryId: id, pickModel: true });
        return;
    }
  });
  root.addEventListener('input', (event) => {
    const input = event.target as HTMLTextAreaElement;
    const id = input.dataset?.edit;
    if (id) deps.editing.set(id, input.value);
  });
  root.addEventListener('keydown', (event) => {
    const id = (event.target as HTMLElement).dataset?.edit;
    if (!id || event.isComposing) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      finishEdit(deps, root, id, true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finishEdit(deps, root, id, false);
    }
  });
}
