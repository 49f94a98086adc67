// A tool call as a card: name, key argument, status, what the tool may change and where it comes from (its
// traits, from the host: never guessed from the name), collapsible arguments and result, and while the call
// waits for the user the approval body (approval-card.ts: exactly what will run) and buttons.
import type { AssistantBlock, ToolResultItem, ToolStatus } from '../../src/protocol';
import { el } from '../dom';
import { keyArgument, safeJson, toolTraitsText } from '../format';
import { toolStatus } from '../store';
import { approvalBody, visibleNodes } from './approval-card';
import { userImagesView } from './image-view';
import type { RenderContext } from './message';
import { t } from '../l10n';
import type { WebviewString } from '../../src/protocol/webview-strings';

const statusText: Record<ToolStatus, WebviewString> = {
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

/** A localized text whose {0}, {1}… are names shown as code (text nodes: a server's names are never markup). */
function withCode(text: string, names: readonly string[]): (string | HTMLElement)[] {
  return text.split(/(\{\d+\})/).filter((part) => part !== '').map((part) => {
    const index = /^\{(\d+)\}$/.exec(part)?.[1];
    const name = index === undefined ? undefined : names[Number(index)];
    return name === undefined ? part : el('code', {}, name);
  });
}

/**
 * What a result carries beside its text: an MCP tool's server and tool, its images (thumbnails of the
 * checked raster types only) and the resources it named. All of it is text nodes: nothing a server sent
 * is parsed as markup, and a resource link is shown, never opened or fetched (docs/reliability.md).
 */
function resultExtras(result: ToolResultItem, call: ToolCallView): HTMLElement[] {
  const out: HTMLElement[] = [];
  // the traits line names the server when the tool is live; a result read back later names it itself
  const serverShown = call.origin?.kind === 'mcp';
  if (result.mcp && serverShown) out.push(el('div', { class: 'tool-origin' }, ...withCode(t('MCP tool {0}'), [result.mcp.tool])));
  else if (result.mcp) out.push(el('div', { class: 'tool-origin' }, ...withCode(t('MCP server {0} · tool {1}'), [result.mcp.server, result.mcp.tool])));
  if (result.images && (result.images.shown.length > 0 || result.images.hidden > 0)) out.push(...userImagesView(result.images, t('Images in this tool result')));
  const links = result.mcp?.links ?? [];
  if (links.length > 0) {
    out.push(el('ul', { class: 'tool-links', 'aria-label': t('Resources the tool named') },
      ...links.map((link) => el('li', {}, el('code', { dir: 'ltr' }, ...visibleNodes(link.uri)), link.name ? ` ${link.name}` : ''))));
  }
  return out;
}

export function renderToolCard(ctx: RenderContext, call: ToolCallView, streamingArgs?: string): HTMLElement {
  const status = streamingArgs !== undefined ? 'pending' : toolStatus(ctx.store, call.id);
  const live = ctx.store.tools.get(call.id);
  const result = ctx.store.results.get(call.id);
  const keyArg = keyArgument(call.arguments);
  const card = el(
    'div',
    { class: `tool-card status-${status}`, 'data-tool': call.id, role: 'group', 'aria-label': t('Tool {0}: {1}', call.name, t(statusText[status])) },
    el(
      'div',
      { class: 'tool-head' },
      el('span', { class: 'tool-icon', 'aria-hidden': 'true' }, statusIcon[status]),
      el('span', { class: 'tool-name' }, call.name),
      keyArg ? el('code', { class: 'tool-key', title: keyArg, dir: 'ltr' }, keyArg) : '',
      el('span', { class: 'tool-status' }, t(statusText[status])),
    ),
  );
  const traits = toolTraitsText(call);
  if (traits) card.append(el('div', { class: 'tool-traits' }, traits));
  const argsKey = `tool:${call.id}:args`;
  const argsText = streamingArgs ?? safeJson(call.arguments);
  card.append(el('details', { class: 'tool-section', 'data-key': argsKey, open: ctx.open.has(argsKey) }, el('summary', {}, t('Arguments')), el('pre', {}, el('code', {}, ...visibleNodes(argsText)))));
  const output = result?.text ?? live?.partialText;
  if (output !== undefined && output.length > 0) {
    const key = `tool:${call.id}:result`;
    const shown = output.length > RESULT_PREVIEW ? `${output.slice(0, RESULT_PREVIEW)}\n${t('… ({0} more characters)', output.length - RESULT_PREVIEW)}` : output;
    const open = ctx.open.has(key) || (status === 'running' && call.effect === 'runs');
    card.append(el('details', { class: 'tool-section', 'data-key': key, open }, el('summary', {}, status === 'running' ? t('Output so far') : t('Result')), el('pre', {}, el('code', {}, shown))));
  }
  if (result) card.append(...resultExtras(result, call));
  if (live?.reason && status === 'denied') card.append(el('div', { class: 'inline-note' }, live.reason));
  if (result?.imageNotSentTo) card.append(el('div', { class: 'inline-note image-not-sent' }, t('{0} does not read images: it was sent a placeholder instead of this image.', result.imageNotSentTo)));
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
        { class: 'approval', role: 'group', 'aria-label': t('Approve this tool call?') },
        el('span', { class: 'approval-question' }, t('Allow {0}?', call.name)),
        canDiff ? el('vscode-button', { appearance: 'secondary', 'data-action': 'openDiff', 'data-id': call.id }, t('Open in diff editor')) : '',
        el('vscode-button', { appearance: warned ? 'secondary' : 'primary', 'data-action': 'approve', 'data-id': call.id, class: 'approve-btn' }, warned ? t('Approve anyway') : t('Approve')),
        warned ? '' : el('vscode-button', { appearance: 'secondary', 'data-action': 'approveAlways', 'data-id': call.id, title: t('Approve every {0} call in this session', call.name) }, t('Always')),
        el('vscode-button', { appearance: warned ? 'primary' : 'secondary', 'data-action': 'deny', 'data-id': call.id, title: t('Deny (with the note below, if any, sent to the model)') }, t('Deny')),
        // Deny with feedback: the note goes back to the model as the reason, so it can try differently.
        el('input', {
          type: 'text',
          class: 'deny-note',
          'data-deny-note': call.id,
          placeholder: t('Deny with a note…'),
          'aria-label': t('Note for the model when denying {0} (Enter denies)', call.name),
          maxlength: '20000',
          value: ctx.notes?.get(call.id) ?? '',
        }),
      ),
    );
  }
  return card;
}
