// The body of an approval card: exactly what will run or change, before the user decides
// (docs/reliability.md). Warnings (protected file, hard link) come first as a distinct banner; a bash
// command is shown whole in a scrollable monospace box; write/edit show the host's compact diff; any
// other call shows each argument. Every string goes through visible-text, so nothing hides.
import type { ApprovalDiffView, ApprovalWarningView } from '../../src/protocol';
import { el } from '../dom';
import { safeJson } from '../format';
import { lineCount, visiblePieces } from '../visible-text';

/** Rendered text with badges for hidden characters and marked space runs. */
export function visibleNodes(text: string): Node[] {
  return visiblePieces(text).map((piece) => {
    if (piece.kind === 'text') return document.createTextNode(piece.text);
    const cls = piece.kind === 'badge' ? 'hidden-char' : 'space-run';
    return el('span', { class: cls, title: piece.title }, piece.text);
  });
}

function warningBanner(warnings: readonly ApprovalWarningView[]): HTMLElement {
  return el(
    'div',
    { class: 'approval-warning', role: 'alert' },
    ...warnings.map((w) => el('div', { class: `approval-warning-line warning-${w.kind}` }, el('span', { class: 'approval-warning-icon', 'aria-hidden': 'true' }, '⚠'), el('span', {}, w.message))),
  );
}

function textBox(label: string, text: string): HTMLElement {
  const lines = lineCount(text);
  return el(
    'div',
    { class: 'approval-arg' },
    el('div', { class: 'approval-arg-label' }, label, lines > 1 ? el('span', { class: 'approval-lines' }, ` · ${lines} lines`) : ''),
    el('pre', { class: 'approval-text', tabindex: '0', 'aria-label': `${label} (${lines} line${lines === 1 ? '' : 's'})` }, ...visibleNodes(text)),
  );
}

const DIFF_CLASS: Record<ApprovalDiffView['lines'][number]['kind'], string> = { ' ': 'diff-same', '-': 'diff-del', '+': 'diff-add', '@': 'diff-hunk' };

function diffBox(callId: string, path: string, diff: ApprovalDiffView): HTMLElement {
  const rows = diff.lines.map((line) =>
    el('span', { class: `diff-line ${DIFF_CLASS[line.kind]}` }, line.kind === '@' ? line.text : line.kind, ...(line.kind === '@' ? [] : visibleNodes(line.text))),
  );
  const summary = `${diff.isNewFile ? 'new file · ' : ''}+${diff.added} −${diff.removed}`;
  return el(
    'div',
    { class: 'approval-arg' },
    el('div', { class: 'approval-arg-label' }, el('code', {}, ...visibleNodes(path)), el('span', { class: 'approval-lines' }, ` · ${summary}`)),
    el('pre', { class: 'approval-text approval-diff', tabindex: '0', 'aria-label': `Changes to ${path}` }, ...(rows.length ? rows : ['(no changes)'])),
    diff.omittedLines > 0
      ? el('div', { class: 'approval-more' }, `${diff.omittedLines} more lines: `, el('vscode-button', { appearance: 'secondary', 'data-action': 'openDiff', 'data-id': callId }, 'Open in diff editor'))
      : '',
  );
}

/** The arguments without the one whose value is the command already shown. */
function omit(args: Record<string, unknown>, command: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== command));
}

function argumentBoxes(args: Record<string, unknown>): HTMLElement[] {
  return Object.entries(args).map(([key, value]) => textBox(key, typeof value === 'string' ? value : safeJson(value)));
}

/** What the card shows above its buttons while the call waits for approval. */
export function approvalBody(
  call: { id: string; name: string; arguments: Record<string, unknown> },
  live: { warnings?: ApprovalWarningView[]; diff?: ApprovalDiffView; command?: string } | undefined,
): HTMLElement {
  const body = el('div', { class: 'approval-body' });
  if (live?.warnings?.length) body.append(warningBanner(live.warnings));
  const { path } = call.arguments;
  // The host sends `command` for a tool that runs one (its effect says what it runs): shown whole, first.
  if (live?.command !== undefined) body.append(textBox('Command', live.command), ...argumentBoxes(omit(call.arguments, live.command)));
  else if (live?.diff && typeof path === 'string') body.append(diffBox(call.id, path, live.diff));
  else body.append(...argumentBoxes(call.arguments));
  return body;
}
