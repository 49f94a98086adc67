// "Jump to latest": a button over the bottom of the conversation while the user is scrolled up from the
// end of the path (reading back while a reply streams, or after Load earlier). It sits in a strip placed right
// after the scroller (root), empty while hidden; while shown the conversation gives up the strip's height, so
// the button never covers text (webview/styles/feedback.css).
import { el } from '../dom';
import { t } from '../l10n';
import { awayFromEnd } from '../scroll-controller';

export interface JumpToLatest {
  /** goes right after the scroller in the page */
  root: HTMLElement;
  /** re-checks whether the button shows (after content changed without a scroll) */
  update(): void;
}

export function createJumpToLatest(scroller: HTMLElement, jump: () => void): JumpToLatest {
  const button = el('button', { type: 'button', class: 'jump-latest', id: 'jump-latest', title: t('Scroll to the newest message'), hidden: true }, t('↓ Jump to latest'));
  const root = el('div', { class: 'jump-latest-anchor' }, button);
  const update = () => {
    button.hidden = !awayFromEnd(scroller);
  };
  button.addEventListener('click', () => {
    jump();
    scroller.scrollTop = scroller.scrollHeight;
    update();
  });
  scroller.addEventListener('scroll', update, { passive: true });
  return { root, update };
}
