// The buttons an error or notice offers (Set API Key…, Open Settings, Continue): one look and one set of
// data attributes for a failed reply's error and for the inline notices; actions.ts sends them to the host.
import { el } from '../dom';
import type { NoticeAction } from '../notices';
import { t } from '../l10n';

function label(action: NoticeAction): string {
  if (action.kind === 'setApiKey') return t('Set API Key…');
  if (action.kind === 'openSettings') return t('Open Settings');
  return t('Continue');
}

function data(action: NoticeAction): Record<string, string> {
  if (action.kind === 'setApiKey') return { 'data-provider': action.provider, title: t("Store an API key for {0} (kept in VS Code's Secret Storage)", action.provider) };
  if (action.kind === 'openSettings') return { 'data-setting': action.setting, title: t('Open the setting {0}', action.setting) };
  return {};
}

/** Link-styled buttons for `actions`; `noticeId` ties them to the notice they dismiss when run. */
export function noticeActionButtons(actions: readonly NoticeAction[] | undefined, noticeId?: number): HTMLElement[] {
  return (actions ?? []).map((action) =>
    el('button', { type: 'button', class: 'link-btn error-action', 'data-action': action.kind, ...(noticeId === undefined ? {} : { 'data-id': String(noticeId) }), ...data(action) }, label(action)),
  );
}
