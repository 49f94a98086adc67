// Context meter (tokens used / window, the compaction threshold marked, branch and session cost) and the
// warning banner shown near the threshold with Compact now / Later.
import type { ChatState } from '../../src/protocol';
import { el } from '../dom';
import { formatCost, formatTokens } from '../format';

export interface MeterActions {
  compactNow(): void;
}

export function createMeter(actions: MeterActions): { meter: HTMLElement; banner: HTMLElement; update(state: ChatState | undefined): void } {
  const fill = el('div', { class: 'meter-fill' });
  const tick = el('div', { class: 'meter-threshold', title: 'Automatic compaction threshold' });
  const bar = el('div', { class: 'meter-bar', role: 'meter', 'aria-label': 'Context used', 'aria-valuemin': '0' }, fill, tick);
  const text = el('span', { class: 'meter-text', id: 'meter-text' });
  const cost = el('span', { class: 'meter-cost', id: 'meter-cost' });
  // a landmark of its own (between the header and the conversation), so no content sits outside one
  const meter = el('section', { class: 'meter', id: 'meter', 'aria-label': 'Context usage', hidden: true }, bar, el('div', { class: 'meter-line' }, text, cost));
  const bannerText = el('span', {});
  const compact = el('vscode-button', { appearance: 'primary', id: 'compact-now' }, 'Compact now');
  const later = el('vscode-button', { appearance: 'secondary', id: 'compact-later' }, 'Later');
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
      bar.setAttribute('aria-valuetext', `${formatTokens(used)} of ${formatTokens(usage.contextWindow)} tokens`);
      text.textContent = `${estimated ? '≈' : ''}${formatTokens(used)} / ${formatTokens(usage.contextWindow)} tokens · compacts at ${formatTokens(usage.thresholdTokens)}`;
      cost.textContent = `branch ${formatTokens(usage.branchTokens)} tok · ${formatCost(usage.branchCost)} · session ${formatCost(usage.sessionCost)}`;
      const warnAt = usage.thresholdTokens * (state?.settings?.compactionWarningRatio ?? 0.85);
      const near = usage.thresholdTokens > 0 && used >= warnAt;
      meter.classList.toggle('near', near);
      if (dismissedBelow !== undefined && used < dismissedBelow) dismissedBelow = undefined;
      const dismissed = dismissedBelow !== undefined && used < usage.thresholdTokens;
      banner.hidden = !near || dismissed || state?.busy === true;
      bannerText.textContent = `Context is at ${Math.round((used / usage.thresholdTokens) * 100)}% of the compaction threshold. Compact now, with your own focus if you like (/compact …), or keep going.`;
    },
  };
}
