// One conversation item -> DOM. Pure functions of the item and the store; actions are data-action
// attributes handled by delegation (actions.ts), so re-rendering never leaks listeners.
import type { AssistantBlock, BranchSummaryItem, CompactionItem, CompactionReasonName, ConversationItem, KeptWords } from '../../src/protocol';
import { el } from '../dom';
import { formatCost, formatTime, formatTokens } from '../format';
import { icon, type IconName } from '../icons';
import { setMarkdown } from '../markdown';
import type { Draft, Store } from '../store';
import { renderToolCard } from './tool-card';
import { userBody } from './user-body';
import { noticeActionButtons } from './notice-actions';
import { format, t } from '../l10n';

export interface RenderContext {
  store: Store;
  /** ids of <details>/markers the user opened, so a re-render keeps them open */
  open: Set<string>;
  /** deny notes typed in approval cards, by tool call id (a card re-renders when statuses change) */
  notes?: Map<string, string>;
}

/** A compact icon button: the title is the tooltip, the aria-label the accessible name. */
function actionButton(action: string, id: string, glyph: IconName, title: string): HTMLElement {
  return el('button', { type: 'button', class: 'icon-btn', 'data-action': action, 'data-id': id, 'data-icon': glyph, title, 'aria-label': title }, icon(glyph));
}

/** what a failed reply's error offers (its fix, then Retry), as link-styled buttons after the message */
function errorActionButtons(ctx: RenderContext, id: string): HTMLElement[] {
  const retry = el('button', { type: 'button', class: 'link-btn error-action', 'data-action': 'retry', 'data-id': id, title: t('Ask the model again from before this reply (the failed reply stays in the tree)') }, t('Retry'));
  return [...noticeActionButtons(ctx.store.errorActions.get(id)), retry];
}

/** Pin / Unpin and Summarize from here: the same for your messages and the assistant's replies. */
function stageActions(item: ConversationItem, pinnable: boolean): HTMLElement[] {
  const id = item.entryId;
  const pin = item.pinned
    ? actionButton('pin', id, 'pin', t('Unpin (compactions may summarize it again)'))
    : actionButton('pin', id, 'pin', t('Pin: keep this message verbatim through compactions'));
  if (item.pinned) pin.setAttribute('aria-pressed', 'true');
  // offered only where the command can run (the host's `stageStart`: after the newest compaction)
  const summarize = item.stageStart ? [actionButton('summarizeFromHere', id, 'summarize', t('Summarize from here: close this stage into one summary (the originals stay in the tree)'))] : [];
  return [...(pinnable ? [pin] : []), ...summarize];
}

function pinMark(item: ConversationItem): HTMLElement | string {
  if (!item.pinned) return '';
  return el('span', { class: 'pin-mark', title: t('Pinned: kept verbatim through compactions'), role: 'img', 'aria-label': t('Pinned') }, icon('pin'));
}

function head(who: string, item: ConversationItem, actions: HTMLElement[]): HTMLElement {
  const label = item.label ? el('span', { class: 'entry-label', title: t('Label: {0}', item.label) }, item.label) : '';
  return el(
    'div',
    { class: 'msg-head' },
    el('span', { class: 'who' }, who),
    pinMark(item),
    label,
    el('span', { class: 'when', title: formatTime(item.timestamp) }, formatTime(item.timestamp)),
    // A toolbar overlaid on the head's right edge (it takes no width, so nothing wraps in a narrow view);
    // shown on hover and whenever focus is inside the message, so the keyboard always reaches it.
    actions.length > 0 ? el('div', { class: 'msg-actions', role: 'toolbar', 'aria-label': t('Message actions') }, ...actions) : '',
  );
}

function markdownBody(text: string): HTMLElement {
  const body = el('div', { class: 'markdown' });
  setMarkdown(body, text);
  return body;
}

function details(ctx: RenderContext, key: string, summary: string, content: HTMLElement, cls: string): HTMLElement {
  const node = el('details', { class: cls, 'data-key': key, open: ctx.open.has(key) }, el('summary', {}, summary), content);
  return node;
}

export function renderBlocks(ctx: RenderContext, ownerKey: string, blocks: AssistantBlock[], draft?: Draft): HTMLElement[] {
  const out: HTMLElement[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      if (block.text.length > 0) out.push(markdownBody(block.text));
    } else if (block.type === 'thinking') {
      const key = `${ownerKey}:thinking:${index}`;
      out.push(details(ctx, key, draft ? t('Thinking…') : t('Thinking'), markdownBody(block.thinking), 'thinking'));
    } else {
      out.push(renderToolCard(ctx, block, draft?.partialArgs.get(index)));
    }
  });
  return out;
}

function renderUser(item: Extract<ConversationItem, { kind: 'user' }>): HTMLElement {
  const id = item.entryId;
  return el(
    'article',
    { class: `msg msg-user${item.pinned ? ' pinned' : ''}`, 'data-entry': id, 'aria-label': t('Your message') },
    head(t('You'), item, [
      actionButton('edit', id, 'edit', t('Edit in place and send as a new branch (the original stays in the tree)')),
      actionButton('branch', id, 'branch', t('Branch from here (drop the reply; your next message follows this one)')),
      actionButton('copyEntry', id, 'copy', t('Copy the message')),
      actionButton('label', id, 'tag', t('Label: add, rename or remove')),
      ...stageActions(item, item.text.trim() !== ''),
    ]),
    ...userBody(item),
  );
}

function renderAssistant(ctx: RenderContext, item: Extract<ConversationItem, { kind: 'assistant' }>): HTMLElement {
  const id = item.entryId;
  const meta: string[] = [];
  if (item.model) meta.push(item.model);
  if (item.tokens) meta.push(t('{0} tokens', formatTokens(item.tokens)));
  if (item.cost) meta.push(formatCost(item.cost));
  const node = el(
    'article',
    { class: `msg msg-assistant${item.pinned ? ' pinned' : ''}`, 'data-entry': id, 'aria-label': t('Assistant message') },
    head('Arbor', item, [
      actionButton('branch', id, 'branch', t('Branch from here (your next message continues from this reply)')),
      actionButton('copyEntry', id, 'copy', t('Copy the reply')),
      actionButton('label', id, 'tag', t('Label: add, rename or remove')),
      ...stageActions(item, item.blocks.some((b) => b.type === 'text' && b.text.trim() !== '')),
      actionButton('retry', id, 'retry', t('Retry: ask again (this reply stays in the tree as an alternative)')),
      actionButton('retryWith', id, 'retryModel', t('Retry with another model…')),
    ]),
    ...renderBlocks(ctx, id, item.blocks),
  );
  if (item.stopReason === 'error' || item.errorMessage) {
    node.append(el('div', { class: 'inline-error', role: 'alert' }, el('span', {}, item.errorMessage ?? t('The reply ended with an error.')), ...errorActionButtons(ctx, id)));
  } else if (item.stopReason === 'aborted') {
    node.append(el('div', { class: 'inline-note' }, t('Stopped.')));
  } else if (item.stopReason === 'length') {
    node.append(el('div', { class: 'inline-note' }, t('The reply hit the output limit.')));
  }
  if (meta.length > 0) node.append(el('div', { class: 'msg-meta' }, meta.join(' · ')));
  return node;
}

function fileList(title: string, files: string[]): HTMLElement | string {
  if (files.length === 0) return '';
  return el('div', { class: 'file-list' }, el('div', { class: 'file-list-title' }, t('{0} ({1})', title, files.length)), el('ul', {}, ...files.slice(0, 200).map((f) => el('li', {}, el('code', {}, f)))));
}

const reasonText: Record<CompactionReasonName, () => string> = {
  manual: () => t('Compacted on request'),
  'manual-cut': () => t('Compacted up to here'),
  threshold: () => t('Compacted automatically'),
  overflow: () => t('Compacted after a context overflow'),
  idle: () => t('Compacted while idle'),
  length: () => t('Compacted after the output limit'),
};

function markerShell(ctx: RenderContext, kind: 'compaction' | 'branch_summary', id: string, line: string, title: string, body: () => HTMLElement[]): HTMLElement {
  const key = `marker:${id}`;
  const expanded = ctx.open.has(key);
  const toggle = el(
    'button',
    { type: 'button', class: 'marker-line', 'data-action': 'toggleMarker', 'data-id': key, 'aria-expanded': String(expanded), title },
    el('span', { class: `marker-icon icon-${kind}`, 'aria-hidden': 'true' }, icon(kind === 'compaction' ? 'fold' : 'branch')),
    el('span', { class: 'marker-text' }, line),
    el('span', { class: 'marker-chevron', 'aria-hidden': 'true' }, expanded ? '▾' : '▸'),
  );
  const node = el('section', { class: `marker marker-${kind}`, 'data-entry': id, 'aria-label': line }, toggle);
  if (expanded) node.append(el('div', { class: 'marker-body' }, ...body()));
  return node;
}

const keptKindName: Record<KeptWords['kind'], () => string> = {
  said: () => t('you said'),
  summarized: () => t('summarized'),
  pinned: () => t('pinned'),
  constraint: () => t('constraint'),
  correction: () => t('correction'),
};

/** "1 path" / "3 paths": the English plural rule, each form a string of its own to translate. */
function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : format(many, [n]);
}

/** "1 pinned · 4 messages you wrote · 2 constraints · 3 paths": what the kept section holds, for its one-line summary. */
function keptCounts(kept: readonly KeptWords[], paths: number): string {
  const count = (kind: KeptWords['kind']) => kept.filter((k) => k.kind === kind).length;
  const parts = [
    count('pinned') ? t('{0} pinned', count('pinned')) : '',
    count('said') ? plural(count('said'), t('1 message you wrote'), t('{0} messages you wrote')) : '',
    count('summarized') ? t('{0} summarized', count('summarized')) : '',
    count('constraint') ? plural(count('constraint'), t('1 constraint'), t('{0} constraints')) : '',
    count('correction') ? plural(count('correction'), t('1 correction'), t('{0} corrections')) : '',
    paths ? plural(paths, t('1 path'), t('{0} paths')) : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * What the compaction kept (the user's messages and pinned messages verbatim, ledger lines, the paths
 * read and modified), collapsed under one line below the marker; the summary itself is in the body.
 */
function keptSection(ctx: RenderContext, item: CompactionItem): HTMLElement | string {
  const kept = item.kept ?? [];
  const paths = item.readFiles.length + item.modifiedFiles.length;
  if (kept.length === 0 && paths === 0) return '';
  const words = kept.map((k) =>
    el('li', { class: `kept-${k.kind}` }, el('span', { class: 'kept-kind' }, keptKindName[k.kind]()), el('span', { class: 'kept-text' }, k.text)),
  );
  const content = el(
    'div',
    { class: 'kept-body' },
    words.length > 0 ? el('ul', { class: 'kept-words', 'aria-label': t('Your words kept verbatim') }, ...words) : '',
    fileList(t('Read files'), item.readFiles),
    fileList(t('Modified files'), item.modifiedFiles),
  );
  return details(ctx, `kept:${item.entryId}`, t('Kept: {0}', keptCounts(kept, paths)), content, 'marker-kept');
}

/** Who wrote a marker's summary and what it cost (both saved in the entry). */
function summarizerParts(item: { model?: string; cost?: number }): string[] {
  return [...(item.model ? [item.model] : []), ...(item.cost !== undefined ? [formatCost(item.cost)] : [])];
}

/** What the model gets instead of the summary, when the compaction also holds a provider-native context. */
function nativeContextNote(item: CompactionItem): HTMLElement | '' {
  const native = item.nativeContext;
  if (!native) return '';
  const where = native.host ? t('{0} at {1}', native.model, native.host) : native.model;
  return el('p', { class: 'native-context-note' }, t("{0} is sent the provider's own compacted context (encrypted, not shown here) in place of this summary; any other model gets this summary.", where));
}

function renderCompaction(ctx: RenderContext, item: CompactionItem): HTMLElement {
  const parts = [item.reason ? reasonText[item.reason]() : t('Compacted')];
  parts.push(item.tokensAfter !== undefined ? t('{0} → {1}{2} tokens', formatTokens(item.tokensBefore), item.tokensAfterEstimated ? '~' : '', formatTokens(item.tokensAfter)) : t('{0} tokens summarized', formatTokens(item.tokensBefore)));
  parts.push(...summarizerParts(item));
  if (item.nativeContext) parts.push(t('native context for {0}', item.nativeContext.model));
  const marker = markerShell(ctx, 'compaction', item.entryId, parts.join(' · '), item.shortSummary ?? t('Show the summary that replaced older messages'), () => [
    item.label ? el('div', { class: 'entry-label' }, item.label) : '',
    nativeContextNote(item),
    markdownBody(item.summary),
    el(
      'div',
      { class: 'marker-actions' },
      el('vscode-button', { appearance: 'secondary', 'data-action': 'showOriginal', 'data-id': item.entryId }, t('Show the original messages')),
      el('vscode-button', { appearance: 'secondary', 'data-action': 'continueBefore', 'data-id': item.entryId }, t('Continue from before this compaction')),
    ),
  ].filter((n): n is HTMLElement => n !== ''));
  const kept = keptSection(ctx, item);
  if (kept) marker.querySelector('.marker-line')!.after(kept);
  return marker;
}

function renderBranchSummary(ctx: RenderContext, item: BranchSummaryItem): HTMLElement {
  const stage = item.stage;
  const what = stage ? (stage.label ? t('Stage “{0}” summarized', stage.label) : t('Stage summarized')) : t('Summary of the branch you left');
  const line = [what, ...summarizerParts(item)].join(' · ');
  const title = stage ? t('Show the summary of the finished stage (the original messages stay in the tree)') : t('Show the summary carried over from another branch');
  return markerShell(ctx, 'branch_summary', item.entryId, line, title, () => [
    markdownBody(item.summary),
    fileList(t('Read files'), item.readFiles),
    fileList(t('Modified files'), item.modifiedFiles),
    stage
      ? el('div', { class: 'marker-actions' }, el('vscode-button', { appearance: 'secondary', 'data-action': 'showStageOriginals', 'data-id': stage.leafId }, t('Go back to the original messages')))
      : '',
  ].filter((n): n is HTMLElement => n !== ''));
}

export function renderItem(ctx: RenderContext, item: ConversationItem): HTMLElement {
  switch (item.kind) {
    case 'user':
      return renderUser(item);
    case 'assistant':
      return renderAssistant(ctx, item);
    case 'compaction':
      return renderCompaction(ctx, item);
    case 'branch_summary':
      return renderBranchSummary(ctx, item);
    case 'custom_message':
      return el('article', { class: 'msg msg-custom', 'data-entry': item.entryId, 'aria-label': item.customType }, head(item.customType, item, []), markdownBody(item.text));
    case 'bash':
      return el(
        'article',
        { class: 'msg msg-bash', 'data-entry': item.entryId, 'aria-label': t('Shell command') },
        head(t('Shell'), item, []),
        el('pre', { class: 'bash' }, el('code', {}, `$ ${item.command}\n${item.output}${item.cancelled ? `\n${t('(cancelled)')}` : item.exitCode ? `\n${t('(exit {0})', item.exitCode)}` : ''}`)),
      );
    case 'notice':
      return el('div', { class: `notice-line level-${item.level}`, 'data-entry': item.entryId }, item.text);
    case 'toolResult':
      // Shown inside the assistant's tool card; a stray result (its call not on the path) shows alone.
      return el('div', { class: 'notice-line', 'data-entry': item.entryId }, t('{0} result: {1}', item.toolName, item.text.slice(0, 200)));
  }
}
