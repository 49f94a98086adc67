// What to try, on the welcome of an empty session: a few prompts as buttons that fill the input (never
// send), so a new user sees what Arbor does with files, branches and compaction.
import { el } from '../dom';
import { WELCOME_TIPS } from './welcome-tip-list';
import { t } from '../l10n';

export { WELCOME_TIPS };

/** The tips list; `fill` puts a prompt into the input. */
export function welcomeTips(fill: (prompt: string) => void): HTMLElement {
  const list = el(
    'ul',
    { class: 'welcome-tips', 'aria-label': t('Things to try') },
    ...WELCOME_TIPS.map((tip) => el('li', {}, el('button', { type: 'button', class: 'welcome-tip', 'data-prompt': t(tip.prompt), title: t(tip.prompt) }, t(tip.label)))),
  );
  list.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>('[data-prompt]');
    if (button) fill(button.dataset.prompt ?? '');
  });
  return list;
}
