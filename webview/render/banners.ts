// The Restricted Mode banner (untrusted workspace: mutating tools are off) with the host's reason.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';
import { t } from '../l10n';

export function createRestrictedBanner(): { root: HTMLElement; update(state: ChatState | undefined): void } {
  const text = el('span', {});
  const root = el('div', { class: 'banner banner-restricted', id: 'restricted-banner', role: 'status', hidden: true }, el('strong', {}, t('Restricted Mode. ')), text);
  return {
    root,
    update(state) {
      root.hidden = !state || state.workspaceTrusted;
      text.textContent = state?.restrictedReason ?? t('This workspace is not trusted, so Arbor cannot edit files or run commands. Trust the workspace to enable them.');
    },
  };
}
