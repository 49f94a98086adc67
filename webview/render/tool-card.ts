// A tool call as a card: name, key argument, status, what the tool may change and where it comes from (its
// traits, from the host: never guessed from the name), collapsible arguments and result, and while the call
// waits for the user the approval body (approval-card.ts: exactly what will run) and buttons.
import type { AssistantBlock, ToolStatus } from '../../src/protocol';
import { el } from '../dom';
import { keyArgument, safeJson, toolTraitsText } from '../format';
import { toolStatus } from '../store';
import { approvalBody, visibleNodes } from './approval-card';
import type { RenderContext } from './message';

const statusText: Record<ToolStatus, string> = {
  pending: 'pending',
  awaitingApproval: 'awaiting approval',
  running: 'running',
  done: 'done',
  error: 'error',
  denied: 'denied',
  aborted: 'aborted',
  skipped: 'skipped',
};
const statusIcon: Record<ToolStatus, string> = {
  pending: '○', awaitingApproval: '?', running: '◌', done: '✓', error: '✕', denied: '⊘', aborted: '■', skipped: '–',
};

const RESULT_PREVIEW = 20_000;

export type ToolCallView = Omit<Extract<AssistantBlock, { type: 'toolCall' }>, 'type'>;

export function renderToolCard(ctx: RenderContext, call: ToolCallView, streamingArgs?: string): HTMLElement {
  const status = streamingArgs !== undefined ? 'pending' : toolStatus(ctx.store, call.id);
  const live = ctx.store.tools.get(call.id);
  const result = ctx.store.results.get(call.id);
  const keyArg = keyArgument(call.arguments);
  const card = el(
    'div',
    { class: `tool-card status-${status}`, 'data-tool': call.id, role: 'group', 'aria-label': `Tool ${call.name}: ${statusText[status]}` },
    el(
      'div',
      { class: 'tool-head' },
      el('span', { class: 'tool-icon', 'aria-hidden': 'true' }, statusIcon[status]),
      el('span', { class: 'tool-name' }, call.name),
      keyArg ? el('code', { class: 'tool-key', title: keyArg, dir: 'ltr' }, keyArg) : '',
      el('span', { class: 'tool-status' }, statusText[status]),
    ),
  );
  const traits = toolTraitsText(call);
  if (traits) card.append(el('div', { class: 'tool-traits' }, traits));
  const argsKey = `tool:${call.id}:args`;
  const argsText = streamingArgs ?? safeJson(call.arguments);
  card.append(el('details', { class: 'tool-section', 'data-key': argsKey, open: ctx.open.has(argsKey) }, el('summary', {}, 'Arguments'), el('pre', {}, el('code', {}, ...visibleNodes(argsText)))));
  const output = result?.text ?? live?.partialText;
  if (output !== undefined && output.length > 0) {
    const key = `tool:${call.id}:result`;
    const shown = output.length > RESULT_PREVIEW ? `${output.slice(0, RESULT_PREVIEW)}\n… (${output.length - RESULT_PREVIEW} more characters)` : output;
    const open = ctx.open.has(key) || (status === 'running' && call.effect === 'runs');
    card.append(el('details', { class: 'tool-section', 'data-key': key, open }, el('summary', {}, status === 'running' ? 'Output so far' : 'Result'), el('pre', {}, el('code', {}, shown))));
  }
  if (live?.reason && status === 'denied') card.append(el('div', { class: 'inline-note' }, live.reason));
  if (result?.imageNotSentTo) card.append(el('div', { class: 'inline-note image-not-sent' }, `${result.imageNotSentTo} does not read images: it was sent a placeholder instead of this image.`));
  if (status === 'awaitingApproval') {
    const canDiff = live?.canDiff ?? false;
    // A warning (protected file, hard link) makes Deny the prominent button and drops "Always": the
    // session-wide approval would not cover such a file anyway (docs/reliability.md).
    const warned = (live?.warnings?.length ?? 0) > 0;
    if (warned) card.classList.add('approval-warned');
    card.append(
      approvalBody(call, live),
      el(
        'div',
        { class: 'approval', role: 'group', 'aria-label': 'Approve this tool call?' },
        el('span', { class: 'approval-question' }, `Allow ${call.name}?`),
        canDiff ? el('vscode-button', { appearance: 'secondary', 'data-action': 'openDiff', 'data-id': call.id }, 'Open in diff editor') : '',
        el('vscode-button', { appearance: warned ? 'secondary' : 'primary', 'data-action': 'approve', 'data-id': call.id, class: 'approve-btn' }, warned ? 'Approve anyway' : 'Approve'),
        warned ? '' : el('vscode-button', { appearance: 'secondary', 'data-action': 'approveAlways', 'data-id': call.id, title: `Approve every ${call.name} call in this session` }, 'Always'),
        el('vscode-button', { appearance: warned ? 'primary' : 'secondary', 'data-action': 'deny', 'data-id': call.id, title: 'Deny (with the note below, if any, sent to the model)' }, 'Deny'),
        // Deny with feedback: the note goes back to the model as the reason, so it can try differently.
        el('input', {
          type: 'text',
          class: 'deny-note',
          'data-deny-note': call.id,
          placeholder: 'Deny with a note…',
          'aria-label': `Note for the model when denying ${call.name} (Enter denies)`,
          maxlength: '20000',
          value: ctx.notes?.get(call.id) ?? '',
        }),
      ),
    );
  }
  return card;
}
