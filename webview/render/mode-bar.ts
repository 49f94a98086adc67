// The approval mode on the composer (docs/architecture.md, "Approval modes"): a picker Ask / Auto-edit /
// Plan, always visible and readable at 300 px, and "Run this plan" with the mode to run it in when the
// host says a plan is ready (`planReady`, decided by src/app/plan-ready.ts). This only shows and asks.
import type { ApprovalModeName, ChatState } from '../../src/protocol';
import { el } from '../dom';
import { t } from '../l10n';

type ValueElement = HTMLElement & { value: string };

export interface ModeBarActions {
  setApprovalMode(mode: ApprovalModeName): void;
  runPlan(mode: Exclude<ApprovalModeName, 'plan'>): void;
}

/** The modes in the picker's order, with their words in the user's language (read when the bar is made). */
function modes(): { mode: ApprovalModeName; label: string; title: string }[] {
  return [
    { mode: 'ask', label: t('Ask'), title: t('Ask: every file change and command asks first') },
    { mode: 'autoEdit', label: t('Auto-edit'), title: t('Auto-edit: file changes inside the workspace run without asking; commands and protected files still ask') },
    { mode: 'plan', label: t('Plan'), title: t('Plan: the agent only reads and writes a plan; nothing changes') },
  ];
}

export interface ModeBar {
  root: HTMLElement;
  update(state: ChatState | undefined): void;
}

export function createModeBar(actions: ModeBarActions): ModeBar {
  const MODES = modes();
  const picker = el(
    'vscode-dropdown',
    { id: 'mode-picker', 'aria-label': t('Approval mode') },
    ...MODES.map((m) => el('vscode-option', { value: m.mode, title: m.title }, m.label)),
  ) as ValueElement;
  const runAsk = el('vscode-button', { appearance: 'primary', 'data-run-plan': 'ask', title: t('Switch to Ask and carry out the plan (every change asks)') }, t('Run in Ask'));
  const runAuto = el('vscode-button', { appearance: 'secondary', 'data-run-plan': 'autoEdit', title: t('Switch to Auto-edit and carry out the plan (file changes in the workspace run without asking)') }, t('Run in Auto-edit'));
  const plan = el('div', { class: 'run-plan', id: 'run-plan', role: 'group', 'aria-label': t('Run this plan'), hidden: true }, el('span', { class: 'run-plan-label' }, t('Run this plan:')), runAsk, runAuto);
  const label = el('label', { class: 'mode-label', for: 'mode-picker' }, t('Mode'));
  const root = el('div', { class: 'mode-bar', id: 'mode-bar' }, el('div', { class: 'mode-row' }, label, picker), plan);
  let shown: ApprovalModeName = 'ask';

  picker.addEventListener('change', () => {
    const mode = MODES.find((m) => m.mode === picker.value)?.mode;
    if (mode && mode !== shown) actions.setApprovalMode(mode);
  });
  plan.addEventListener('click', (event) => {
    const mode = (event.target as HTMLElement).closest<HTMLElement>('[data-run-plan]')?.dataset.runPlan;
    if (mode === 'ask' || mode === 'autoEdit') actions.runPlan(mode);
  });

  return {
    root,
    update(state) {
      shown = state?.approvalMode ?? 'ask';
      if (picker.value !== shown) picker.value = shown;
      const current = MODES.find((m) => m.mode === shown)!;
      picker.title = current.title;
      root.dataset.mode = shown;
      plan.hidden = !(shown === 'plan' && state?.planReady === true);
    },
  };
}
