// The input area: queued prompts (removable), the multi-line input (Enter sends, Shift+Enter newline, Up on
// an empty input recalls the last prompt), slash-command suggestions, model and thinking pickers, Send/Stop.
import type { ChatState, ThinkingLevel } from '../../src/protocol';
import { el } from '../dom';
import { parseInput, suggestions, type ParsedInput } from '../slash';
import { createModelPicker } from './model-picker';
import { t } from '../l10n';
import { lineCount } from '../visible-text';

export interface ComposerActions {
  submit(input: ParsedInput): void;
  /** false keeps the text in the input (the action said why), e.g. images for a model that cannot read them */
  canSubmit?(input: ParsedInput): boolean;
  stop(): void;
  dequeue(index: number): void;
  selectModel(key: string): void;
  setApiKey(provider?: string): void;
  setThinkingLevel(level: ThinkingLevel): void;
  typing(): void;
  changed(text: string): void;
  /** how many images wait in the composer: a prompt of them alone may be sent (a pasted screenshot, Enter) */
  attachments?(): number;
}

type ValueElement = HTMLElement & { value: string };

const LEVELS: ThinkingLevel[] = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** What the thinking picker shows for each level: says what it is, in the user's language (read when made). */
function levelLabels(): Record<ThinkingLevel, string> {
  return {
    off: t('Thinking: off'),
    minimal: t('Thinking: minimal'),
    low: t('Thinking: low'),
    medium: t('Thinking: medium'),
    high: t('Thinking: high'),
    xhigh: t('Thinking: extra high'),
  };
}
/** the input's height in lines: it grows with its text (a quoted selection) up to the maximum, then scrolls */
const MIN_ROWS = 3;
const MAX_ROWS = 10;

export interface Composer {
  root: HTMLElement;
  /** the input and the box around it (extensions such as the @-mention list attach there) */
  input: ValueElement;
  inputWrap: HTMLElement;
  /** where extensions add a button next to Send (e.g. *Attach image*) */
  sendActions: HTMLElement;
  update(state: ChatState | undefined): void;
  setText(text: string): void;
  getText(): string;
  /** the attachments changed: Send is enabled while there is text or an image to send */
  attachmentsChanged(): void;
  focus(): void;
  openModelPicker(): void;
}

export function createComposer(actions: ComposerActions, history: string[]): Composer {
  const queue = el('ul', { class: 'queue', id: 'queue', 'aria-label': t('Queued messages'), hidden: true });
  const input = el('vscode-text-area', {
    id: 'prompt-input',
    class: 'prompt-input',
    rows: String(MIN_ROWS),
    resize: 'vertical',
    placeholder: t('Ask Arbor to change something…  (Enter to send, Shift+Enter for a new line, / for commands, @ for files)'),
    'aria-label': t('Message to Arbor'),
  }) as ValueElement;
  const suggest = el('ul', { class: 'suggest', id: 'slash-suggestions', role: 'listbox', 'aria-label': t('Commands'), hidden: true });
  const picker = createModelPicker(actions);
  const model = picker.element;
  const levels = levelLabels();
  const thinking = el('vscode-dropdown', { id: 'thinking-picker', title: t('Thinking level'), 'aria-label': t('Thinking level') }, ...LEVELS.map((l) => el('vscode-option', { value: l }, levels[l]))) as ValueElement;
  const send = el('vscode-button', { id: 'send', appearance: 'primary', title: t('Send (Enter)') }, t('Send'));
  const stop = el('vscode-button', { id: 'stop', appearance: 'secondary', title: t('Stop the agent'), hidden: true }, t('Stop'));
  const inputWrap = el('div', { class: 'input-wrap' }, suggest, input);
  const sendActions = el('div', { class: 'send-actions' }, stop, send);
  const root = el(
    'footer',
    { class: 'composer', id: 'composer' },
    queue,
    inputWrap,
    el('div', { class: 'composer-row' }, el('div', { class: 'pickers' }, model, picker.keyButton, thinking), sendActions),
  );

  let historyIndex = -1;
  let selected = 0;
  let shownSuggestions: ReturnType<typeof suggestions> = [];
  let lastTyping = 0;

  function text(): string {
    return input.value ?? '';
  }
  /** One row per line of the text, within MIN_ROWS..MAX_ROWS (a 3-row input cut a quoted selection mid-line). */
  function fitRows(): void {
    const rows = String(Math.min(MAX_ROWS, Math.max(MIN_ROWS, lineCount(text()))));
    if (input.getAttribute('rows') !== rows) input.setAttribute('rows', rows);
  }
  function setText(value: string): void {
    input.value = value;
    fitRows();
    actions.changed(value);
    renderSuggestions();
    updateSend();
  }

  /** Something to send: text, or images alone (their prompt has no text). */
  function canSend(): boolean {
    return text().trim().length > 0 || (actions.attachments?.() ?? 0) > 0;
  }
  function updateSend(): void {
    send.toggleAttribute('disabled', !canSend());
  }

  function renderSuggestions(): void {
    shownSuggestions = suggestions(text());
    suggest.hidden = shownSuggestions.length === 0;
    if (selected >= shownSuggestions.length) selected = 0;
    suggest.replaceChildren(
      ...shownSuggestions.map((c, i) =>
        el(
          'li',
          { role: 'option', 'aria-selected': String(i === selected), class: i === selected ? 'selected' : '', 'data-command': c.name },
          el('span', { class: 'cmd' }, `/${c.name}`),
          c.args ? el('span', { class: 'cmd-args' }, ` ${c.args}`) : '',
          el('span', { class: 'cmd-hint' }, t(c.hint)),
        ),
      ),
    );
  }

  function complete(index: number): void {
    const command = shownSuggestions[index];
    if (!command) return;
    setText(`/${command.name}${command.args ? ' ' : ''}`);
    input.focus();
  }

  function submit(): void {
    const value = text();
    if (!canSend()) return;
    const parsed: ParsedInput = value.trim().length === 0 ? { kind: 'prompt', text: '' } : parseInput(value);
    if (actions.canSubmit && !actions.canSubmit(parsed)) return;
    if (parsed.kind === 'prompt' && parsed.text !== '') {
      if (history[history.length - 1] !== value) history.push(value);
      if (history.length > 50) history.shift();
    }
    historyIndex = -1;
    setText('');
    actions.submit(parsed);
  }

  suggest.addEventListener('mousedown', (event) => {
    const item = (event.target as HTMLElement).closest('li');
    if (!item) return;
    event.preventDefault();
    complete([...suggest.children].indexOf(item));
  });

  input.addEventListener('keydown', (event: KeyboardEvent) => {
    if (!suggest.hidden) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        selected = (selected + (event.key === 'ArrowDown' ? 1 : shownSuggestions.length - 1)) % shownSuggestions.length;
        renderSuggestions();
        return;
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey && shownSuggestions[selected] && text() !== `/${shownSuggestions[selected]!.name}`)) {
        event.preventDefault();
        complete(selected);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        suggest.hidden = true;
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
      return;
    }
    if (event.key === 'ArrowUp' && (text() === '' || historyIndex >= 0) && history.length > 0) {
      event.preventDefault();
      historyIndex = historyIndex < 0 ? history.length - 1 : Math.max(0, historyIndex - 1);
      setText(history[historyIndex]!);
      return;
    }
    if (event.key === 'ArrowDown' && historyIndex >= 0) {
      event.preventDefault();
      historyIndex++;
      if (historyIndex >= history.length) {
        historyIndex = -1;
        setText('');
      } else setText(history[historyIndex]!);
    }
  });
  input.addEventListener('input', () => {
    fitRows();
    actions.changed(text());
    renderSuggestions();
    updateSend();
    const now = Date.now();
    if (now - lastTyping > 2000) {
      lastTyping = now;
      actions.typing();
    }
  });
  send.addEventListener('click', submit);
  stop.addEventListener('click', () => actions.stop());
  thinking.addEventListener('change', () => {
    if (LEVELS.includes(thinking.value as ThinkingLevel)) actions.setThinkingLevel(thinking.value as ThinkingLevel);
  });
  queue.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>('[data-dequeue]');
    if (button) actions.dequeue(Number(button.dataset.dequeue));
  });

  return {
    root,
    input,
    inputWrap,
    sendActions,
    update(state) {
      const busy = state?.busy ?? false;
      stop.hidden = !busy;
      send.textContent = busy ? t('Queue') : t('Send');
      send.title = busy ? t('Queue this message for after the current turn (Enter)') : t('Send (Enter)');
      const queued = state?.queued ?? [];
      queue.hidden = queued.length === 0;
      queue.replaceChildren(
        ...queued.map((q, i) =>
          el('li', { class: 'queued' }, el('span', { class: 'queued-tag' }, t('Queued')), el('span', { class: 'queued-text', title: q }, q), el('button', { type: 'button', class: 'link-btn', 'data-dequeue': String(i), 'aria-label': t('Remove queued message {0}', i + 1) }, t('Remove'))),
        ),
      );
      const current = picker.update(state);
      thinking.hidden = !current?.reasoning;
      const level = state?.thinkingLevel ?? 'off';
      if (thinking.value !== level) thinking.value = level;
      thinking.title = levels[level];
    },
    setText,
    getText: text,
    attachmentsChanged: updateSend,
    focus: () => input.focus(),
    openModelPicker() {
      model.focus();
      model.click();
    },
  };
}
