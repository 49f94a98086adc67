// The composer's model picker. A model whose provider needs an API key that is not set is marked "no key"
// in the list; when it is the chosen one, a key button beside the picker says so and sets the key (at
// 300 px the picker's own text is cut). The list's last entry, "Set API key…", runs Arbor: Set API Key
// instead of choosing a model. The tooltip has the full model name.
import type { ChatState, ModelOption } from '../../src/protocol';
import { el } from '../dom';
import { icon } from '../icons';
import { t } from '../l10n';

type ValueElement = HTMLElement & { value: string };

/** The value of the "Set API key…" entry (never a model key: those are "provider/id"). */
export const SET_API_KEY_VALUE = ':setApiKey';

export interface ModelPickerActions {
  selectModel(key: string): void;
  setApiKey(provider?: string): void;
}

export interface ModelPicker {
  element: ValueElement;
  /** shown while the chosen model has no key: sets its provider's key */
  keyButton: HTMLButtonElement;
  update(state: ChatState | undefined): ModelOption | undefined;
}

function optionText(model: ModelOption): string {
  return model.keyMissing ? t('{0} — no key', model.label) : model.label;
}

function options(models: readonly ModelOption[]): HTMLElement[] {
  const list = models.map((m) => el('vscode-option', { value: m.key, ...(m.keyMissing ? { title: t('{0}: no API key for {1} is set', m.label, m.provider) } : {}) }, optionText(m)));
  return [...list, el('vscode-option', { value: SET_API_KEY_VALUE, class: 'model-option-action' }, t('Set API key…'))];
}

function tooltip(current: ModelOption | undefined): string {
  if (!current) return t('Model');
  return current.keyMissing ? t('Model: {0} (no API key for {1} is set)', current.label, current.provider) : t('Model: {0}', current.label);
}

export function createModelPicker(actions: ModelPickerActions): ModelPicker {
  const element = el('vscode-dropdown', { id: 'model-picker', title: t('Model'), 'aria-label': t('Model') }) as ValueElement;
  const keyButton = el('button', { type: 'button', class: 'icon-btn key-missing', id: 'model-key', hidden: true }, icon('key')) as HTMLButtonElement;
  let shownKeys = '';
  let currentKey: string | undefined;
  let current: ModelOption | undefined;
  keyButton.addEventListener('click', () => actions.setApiKey(current?.provider));
  element.addEventListener('change', () => {
    if (element.value === SET_API_KEY_VALUE) {
      // not a model: run the action and show the current model again
      if (currentKey) element.value = currentKey;
      actions.setApiKey();
    } else if (element.value) actions.selectModel(element.value);
  });
  return {
    element,
    keyButton,
    update(state) {
      const models = state?.models ?? [];
      const keys = models.map((m) => `${m.key}\u0000${optionText(m)}`).join('\u0001');
      if (keys !== shownKeys) {
        shownKeys = keys;
        element.replaceChildren(...options(models));
      }
      element.hidden = models.length === 0;
      currentKey = state?.currentModelKey ?? undefined;
      if (currentKey && element.value !== currentKey) element.value = currentKey;
      current = models.find((m) => m.key === currentKey);
      element.title = tooltip(current);
      keyButton.hidden = !current?.keyMissing;
      const label = current?.keyMissing ? `No API key for ${current.provider}: Set API key…` : '';
      keyButton.title = label;
      keyButton.setAttribute('aria-label', label);
      return current;
    },
  };
}
