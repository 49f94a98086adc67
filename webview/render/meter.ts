// Context meter (tokens used / window, the compaction threshold marked, branch and session cost) and the
// warning banner shown near the threshold with Compact now / Later.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';
import { formatCost, formatTokens } from '../format';
import { t } from '../l10n';

export interface MeterActions {
  compactNow(): void;
}

export function createMeter(actions: MeterActions): { meter: HTMLElement; banner: HTMLElement; update(state: ChatState | undefined): void } {
  const fill = el('div', { class: 'meter-fill' });
  const tick = el('div', { class: 'meter-threshold', title: t('Automatic compaction threshold') });
  const bar = el('div', { class: 'meter-bar', role: 'meter', 'aria-label': t('Context used'), 'aria-valuemin': '0' }, fill, tick);
  const text = el('span', { class: 'meter-text', id: 'meter-text' });
  const cost = el('span', { class: 'meter-cost', id: 'meter-cost' });
  // a landmark of its own (between the header and the conversation), so no content sits outside one
  const meter = el('section', { class: 'meter', id: 'meter', 'aria-label': t('Context usage'), hidden: true }, bar, el('div', { class: 'meter-line' }, text, cost));
  const bannerText = el('span', {});
  const compact = el('vscode-button', { appearance: 'primary', id: 'compact-now' }, t('Compact now'));
  const later = el('vscode-button', { appearance: 'secondary', id: 'compact-later' }, t('Later'));
  const banner = el('div', { class: 'banner banner-warning', id: 'compaction-warning', role: 'alert', hidden: true }, bannerText, el('span', { class: 'banner-actions' }, compact, later));
  /** the threshold the user said "Later" to; the banner comes back once the usage passes the threshold */
  let dismissedBelow: number | undefined;
  let lastUsed = 0;
  compact.addEventListener('click', () => {
    banner.hidden = true;
    actions.compactNow();
  });
  later.addEventListener('click', () => {
    dismissedBelow = lastUsed;
    banner.hidden = true;
  });

  return {
    meter,
    banner,
    update(state) {
      const usage = state?.usage;
      if (!usage || usage.contextWindow <= 0) {
        meter.hidden = true;
        banner.hidden = true;
        return;
      }
      meter.hidden = false;
      const estimated = usage.contextTokens === null;
      const used = usage.contextTokens ?? usage.estimatedTokens;
      lastUsed = used;
      const ratio = Math.min(1, used / usage.contextWindow);
      fill.style.width = `${(ratio * 100).toFixed(2)}%`;
      tick.style.left = `${Math.min(100, (usage.thresholdTokens / usage.contextWindow) * 100).toFixed(2)}%`;
      bar.setAttribute('aria-valuemax', String(usage.contextWindow));
      bar.setAttribute('aria-valuenow', String(used));
      bar.setAttribute('aria-valuetext', t('{0} of {1} tokens', formatTokens(used), formatTokens(usage.contextWindow)));
      text.textContent = t('{0}{1} / {2} tokens · compacts at {3}', estimated ? '≈' : '', formatTokens(used), formatTokens(usage.contextWindow), formatTokens(usage.thresholdTokens));
      cost.textContent = t('branch {0} tok · {1} · session {2}', formatTokens(usage.branchTokens), formatCost(usage.branchCost), formatCost(usage.sessionCost));
      const warnAt = usage.thresholdTokens * (state?.settings?.compactionWarningRatio ?? 0.85);
      const near = usage.thresholdTokens > 0 && used >= warnAt;
      meter.classList.toggle('near', near);
      if (dismissedBelow !== undefined && used < dismissedBelow) dismissedBelow = undefined;
      const dismissed = dismissedBelow !== undefined && used < usage.thresholdTokens;
      banner.hidden = !near || dismissed || state?.busy === true;
      bannerText.textContent = t('Context is at {0}% of the compaction threshold. Compact now, with your own focus if you like (/compact …), or keep going.', Math.round((used / usage.thresholdTokens) * 100));
    },
  };
}
