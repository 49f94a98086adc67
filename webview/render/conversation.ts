// The conversation area. For now it holds the welcome text; the chat features render turns here.
import { el } from '../dom';

export function createConversation(): { root: HTMLElement } {
  const welcome = el(
    'section',
    { class: 'welcome', id: 'welcome' },
    el('h2', {}, 'Welcome to Arbor'),
    el(
      'p',
      {},
      'Arbor is a coding agent whose conversations are trees: edit an earlier message to branch, ' +
        'and nothing you tried is lost.',
    ),
    el('p', { class: 'hint' }, 'The Session Tree view shows the branches of the current conversation.'),
  );
  const root = el('main', { class: 'conversation', id: 'conversation', 'aria-live': 'polite' }, welcome);
  return { root };
}
