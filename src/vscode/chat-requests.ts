// What a chat does with each valid message its webview posts (chat-controller.ts validated it): turns it
// into a call on the chat's ArborApp, or into a VS Code action (clipboard, editor, diff), and answers with
// a post where the webview waits for one. Whichever container holds the chat, the requests are the same.
import { errorText } from '../core/error-text';
import * as vscode from 'vscode';
import type { ArborApp } from '../app/arbor-app';
import { IMAGE_LIMITS, userImages, type HostToWebviewMessage, type NavigateFiles, type WebviewMessageOf, type WebviewToHostMessage, type WireImage } from '../protocol';
import { attachImages, backToInput, imagesUnsupportedNotice, pickImages, promptImages, takenBack } from './chat-images';
import type { DraftImages } from './draft-images';
import { realId, wireId } from '../present/wire-ids';
import { retryReply } from '../app/retry-reply';
import { matchingFiles, promptWithMentions } from './file-mentions';
import type { ChatApprovalPrompter } from './approval-prompter';
import { filesDecisionFor, filesPreviewFor, showSwitchChanges } from './checkpoints/chat-files';
import { closeSwitchDiffs } from './checkpoints/switch-diff';
import { type ChatViewStats, type UiCommand } from './chat-controller';
import { toItem } from './chat-items';
import type { Logger } from './log';
import { webviewLogLine } from './log-text';
import { keyMissingText, pickModelKey, selectModel } from './model-selection';
import { setApiKey } from '../app/error-actions';
import type { AppOutcome } from '../app/app-outcome';
import type { PromptOutcome } from '../app/app-types';
import { refusalNotice } from './refusals';
import { openInstructionFile, showInstructions } from './instruction-files';

export interface ChatRequestContext {
  /** absent in tests of the bare view */
  app: ArborApp | undefined;
  prompter: ChatApprovalPrompter | undefined;
  log: Logger;
  stats: ChatViewStats;
  post(message: HostToWebviewMessage): Promise<boolean>;
  /** the view's unsent images (kept while its webview is re-created) */
  draft: DraftImages;
  uiCommand(command: UiCommand): Promise<boolean>;
  showSessionTree(): Thenable<unknown>;
}

function requireApp(ctx: ChatRequestContext): ArborApp {
  if (!ctx.app) throw new Error('The chat is not connected to a session yet.');
  return ctx.app;
}

/** Handles every message but `ready` and `focused` (the controller's own). */
export async function handleChatRequest(ctx: ChatRequestContext, message: WebviewToHostMessage): Promise<void> {
  switch (message.type) {
    case 'ready':
    case 'focused':
      return;
    case 'showSessionTree':
    case 'openTree':
      await ctx.showSessionTree();
      return;
    case 'log':
      ctx.log[message.level](webviewLogLine(message.message));
      return;
    case 'prompt':
      return prompt(ctx, message.text, message.images);
    case 'attachImages':
      await ctx.post(attachImages(message.images, ctx.draft));
      return;
    case 'pickImages': {
      const answer = await pickImages(ctx.draft);
      if (answer) await ctx.post(answer);
      return;
    }
    case 'draftImages':
      ctx.draft.keep(message.ids);
      return;
    case 'stop': {
      const dropped = await requireApp(ctx).stop();
      if (dropped.length > 0) await postAll(ctx, takenBack(dropped, ctx.draft));
      return;
    }
    case 'approve':
      if (!ctx.prompter?.answer(realId(message.toolCallId), message.always ? { kind: 'approveAlways' } : { kind: 'approve' })) {
        ctx.log.warn(`chat view: no pending approval for ${message.toolCallId}`);
      }
      return;
    case 'deny':
      if (!ctx.prompter?.answer(realId(message.toolCallId), { kind: 'deny', ...(message.feedback ? { feedback: message.feedback } : {}) })) {
        ctx.log.warn(`chat view: no pending approval for ${message.toolCallId}`);
      }
      return;
    case 'openDiff':
      if (!(await ctx.prompter?.openDiff(realId(message.toolCallId)))) {
        await ctx.post({ type: 'notice', level: 'warning', message: 'There is no proposed change to review for this tool call.' });
      }
      return;
    case 'navigate':
      await navigate(ctx, message.targetId, message.mode, message.instructions, message.files);
      return;
    case 'editMessage':
      // no dialog: an edit is a new branch without a summary (the Session Tree's default)
      return editMessage(ctx, message);
    case 'retryReply':
      return retry(ctx, realId(message.entryId), message.pickModel === true);
    case 'previewFiles':
      await ctx.post(await filesPreviewFor(requireApp(ctx), realId(message.targetId), message.targetId));
      return;
    case 'showFileChanges':
      return showSwitchChanges(requireApp(ctx), realId(message.targetId));
    case 'cancelNavigation':
      requireApp(ctx).tree.cancelNavigation();
      return;
    case 'branchHere':
      return branchHere(ctx, realId(message.entryId));
    default:
      return handleSessionRequest(ctx, message);
  }
}

/** The rest: the session's entries, model and input (split from the above to keep each switch readable). */
async function handleSessionRequest(ctx: ChatRequestContext, message: WebviewToHostMessage): Promise<void> {
  switch (message.type) {
    case 'compact':
      await requireApp(ctx).compaction.compact(message.instructions?.trim() || undefined);
      return;
    case 'label':
      return told(ctx, await requireApp(ctx).tree.label(realId(message.entryId), message.label));
    case 'pin':
      return pin(ctx, realId(message.entryId), message.pinned);
    case 'summarizeFromHere':
      await vscode.commands.executeCommand('arbor.summarizeFromHere', realId(message.entryId));
      return;
    case 'fork':
      return told(ctx, await requireApp(ctx).session.forkBranch(realId(message.entryId)));
    case 'copy':
      await vscode.env.clipboard.writeText(message.text);
      return;
    case 'insertAtCursor':
      return insertAtCursor(ctx, message.code);
    case 'selectModel': {
      const selected = await selectModel(requireApp(ctx).models, message.key);
      if (selected.kind === 'refused') return told(ctx, selected);
      const view = selected.value;
      if (view.keyMissing) await ctx.post({ type: 'notice', level: 'warning', message: keyMissingText(view), actions: [setApiKey(view.provider)] });
      return;
    }
    case 'setThinkingLevel':
      return told(ctx, await requireApp(ctx).models.setThinkingLevel(message.level));
    case 'setApprovalMode':
      await requireApp(ctx).setApprovalMode(message.mode);
      return;
    case 'runPlan':
      return showPromptOutcome(ctx, await requireApp(ctx).runPlan(message.mode));
    case 'showOriginal':
      return showOriginal(requireApp(ctx), realId(message.compactionId));
    case 'continueBeforeCompaction': {
      const before = requireApp(ctx).views.entryBeforeCompaction(realId(message.compactionId));
      if (before.kind === 'refused') return told(ctx, before);
      await navigate(ctx, wireId(before.value), 'none', undefined);
      return;
    }
    case 'dequeue': {
      const removed = requireApp(ctx).dequeue(message.index);
      if (removed !== undefined) await postAll(ctx, takenBack([removed], ctx.draft));
      return;
    }
    case 'newSession':
      await requireApp(ctx).session.newSession();
      return;
    case 'setApiKey':
      await vscode.commands.executeCommand('arbor.setApiKey', { provider: message.provider });
      return;
    case 'openInstructionFile':
      await openInstructionFile(requireApp(ctx), message.path, (m) => ctx.log.warn(m));
      return;
    case 'showInstructions':
      await showInstructions(requireApp(ctx));
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', message.setting);
      return;
    case 'userTyping':
      ctx.app?.notifyUserTyping();
      return;
    case 'continueReply':
      await ctx.app?.continueReply();
      return;
    case 'findFiles':
      await ctx.post({ type: 'fileMatches', seq: message.seq, files: await matchingFiles(message.query) });
      return;
    case 'loadEarlier':
      await loadEarlier(ctx, message);
      return;
    default:
      return;
  }
}

/**
 * Answers a page request with the items before `beforeId`. A stale request (the path changed since; the
 * webview gets the new tail anyway) or one naming an entry off the path is refused and logged, no reply.
 */
async function loadEarlier(ctx: ChatRequestContext, request: WebviewMessageOf<'loadEarlier'>): Promise<void> {
  const page = requireApp(ctx).views.conversationBefore({ ...request, leafId: realId(request.leafId), beforeId: realId(request.beforeId) });
  if (!page.ok) {
    ctx.stats.refusedPages++;
    ctx.log.warn(`chat view: refused loadEarlier before ${request.beforeId}: ${page.reason}`);
    return;
  }
  const items = page.views.flatMap((entry) => toItem(entry, (name) => requireApp(ctx).tools.get(name)) ?? []);
  await ctx.post({ type: 'conversationPage', seq: request.seq, leafId: request.leafId, beforeId: request.beforeId, items, hasEarlier: page.hasEarlier });
}

async function postAll(ctx: ChatRequestContext, messages: readonly HostToWebviewMessage[]): Promise<void> {
  for (const message of messages) await ctx.post(message);
}

async function prompt(ctx: ChatRequestContext, text: string, wireImages?: readonly WireImage[]): Promise<void> {
  const images = promptImages(wireImages);
  if (!images.ok) return void (await ctx.post({ type: 'notice', level: 'error', message: images.notice }));
  return showPromptOutcome(ctx, await requireApp(ctx).prompt(await promptWithMentions(text), images.images));
}

/** What a prompt (typed, or "Run this plan") came to, told in the chat. */
async function showPromptOutcome(ctx: ChatRequestContext, outcome: PromptOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'imagesUnsupported':
      await ctx.post({ type: 'notice', level: 'warning', message: imagesUnsupportedNotice(outcome.model) });
      return;
    case 'intent':
      if (outcome.intent === 'showTree') await ctx.showSessionTree();
      else await ctx.uiCommand('openModelPicker');
      return;
    case 'refused':
      return told(ctx, outcome);
    case 'error':
      await ctx.post({ type: 'notice', level: 'error', message: outcome.message });
      return;
    case 'compacted':
      await ctx.post({ type: 'notice', level: 'info', message: 'Session compacted.' });
      return;
    default:
      return;
  }
}

/** Edit in place: the edited text goes as a new branch with the images the original message carried. */
async function editMessage(ctx: ChatRequestContext, message: WebviewMessageOf<'editMessage'>): Promise<void> {
  const images = userImages(requireApp(ctx).views.entryView(realId(message.entryId))?.blocks ?? [])?.shown.slice(0, IMAGE_LIMITS.perMessage);
  // blank text goes only with images (a message of images alone, edited to stay so); else nothing moves
  if (message.text.trim() === '' && !images?.length) return;
  // no dialog: an edit is a new branch without a summary (the Session Tree's default)
  if (await navigate(ctx, message.entryId, 'none', undefined, undefined, { editorText: false })) await prompt(ctx, message.text, images);
}

/** Moves the leaf; true when it moved. The dialog's "Show changes" diff closes with the switch. */
async function navigate(
  ctx: ChatRequestContext,
  targetId: string,
  mode: 'none' | 'summarize' | 'custom',
  instructions: string | undefined,
  files?: NavigateFiles,
  options: { editorText?: boolean } = {},
): Promise<boolean> {
  try {
    return await moveLeaf(ctx, targetId, mode, instructions, files, options);
  } finally {
    await closeSwitchDiffs();
  }
}

/** The navigation itself. `editorText: false`: a user message's text is not put in the input. */
async function moveLeaf(
  ctx: ChatRequestContext,
  targetId: string,
  mode: 'none' | 'summarize' | 'custom',
  instructions: string | undefined,
  files?: NavigateFiles,
  { editorText = true } = {},
): Promise<boolean> {
  const app = requireApp(ctx);
  const decision = await filesDecisionFor(app, realId(targetId), files);
  if (!decision) {
    await ctx.post({ type: 'navigationProgress', targetId, state: 'cancelled', message: 'The files choice was dismissed.' });
    return false;
  }
  const summarize = mode !== 'none';
  if (summarize) await ctx.post({ type: 'navigationProgress', targetId, state: 'summarizing' });
  try {
    const outcome = await app.tree.navigate(realId(targetId), {
      summarize,
      ...(mode === 'custom' && instructions?.trim() ? { customInstructions: instructions.trim() } : {}),
      ...(decision.files ? { files: decision.files } : {}),
    });
    if (outcome.kind === 'refused') {
      await ctx.post({ type: 'navigationProgress', targetId, state: 'failed', message: outcome.message });
      await told(ctx, outcome);
      return false;
    }
    const result = outcome.value;
    if (result.cancelled) {
      await ctx.post({ type: 'navigationProgress', targetId, state: 'cancelled', ...(result.message ? { message: result.message } : {}) });
      return false;
    }
    await ctx.post({ type: 'navigationProgress', targetId, state: 'done' });
    if (editorText && result.editorText !== undefined) await postAll(ctx, backToInput(result.editorText, result.editorImages ?? [], ctx.draft));
    return true;
  } catch (error) {
    await ctx.post({ type: 'navigationProgress', targetId, state: 'failed', message: errorText(error).slice(0, 20_000) });
    throw error;
  }
}

/** A refusal is told in the chat as a warning notice (src/vscode/refusals.ts); a done outcome says nothing. */
async function told(ctx: ChatRequestContext, outcome: AppOutcome<unknown>): Promise<void> {
  if (outcome.kind !== 'refused') return;
  ctx.stats.refused++;
  ctx.log.info(`chat: refused (${outcome.reason}): ${outcome.message}`);
  await ctx.post(refusalNotice(outcome));
}

/** Retry on a failed turn (src/app/retry-reply.ts); a refusal is told in the chat. */
async function retry(ctx: ChatRequestContext, entryId: string, pickModel: boolean): Promise<void> {
  const app = requireApp(ctx);
  const model = pickModel ? await pickModelKey(app.models, vscode.l10n.t('Retry with which model?')) : undefined;
  if (pickModel && !model) return;
  return told(ctx, await retryReply(app, entryId, model ? { model } : {}));
}

/** "Branch from here": the leaf moves to the entry itself; the webview's snapshot follows (reset). */
async function branchHere(ctx: ChatRequestContext, entryId: string): Promise<void> {
  const outcome = await requireApp(ctx).tree.branchAt(entryId);
  if (outcome.kind === 'refused') return told(ctx, outcome);
  await ctx.post({ type: 'notice', level: 'info', message: 'Branched here: your next message continues from this point. The rest stays in the tree.' });
}

/** Pin / Unpin from the message toolbar; a refusal is told in the chat (one already as asked says nothing). */
async function pin(ctx: ChatRequestContext, entryId: string, pinned: boolean): Promise<void> {
  const outcome = await requireApp(ctx).tree.pin(entryId, pinned);
  if (outcome.kind === 'refused' && outcome.reason === 'unchanged') return;
  return told(ctx, outcome);
}

async function insertAtCursor(ctx: ChatRequestContext, code: string): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) {
    await ctx.post({ type: 'notice', level: 'warning', message: 'Open a file in an editor to insert the code there.' });
    return;
  }
  await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, code);
  });
}

/** Opens the messages a compaction summarised (its path before the first kept entry) as Markdown. */
async function showOriginal(app: ArborApp, compactionId: string): Promise<void> {
  const summarized = app.views.summarizedBy(compactionId);
  if (summarized.kind === 'refused') return void vscode.window.showWarningMessage(summarized.message);
  const lines: string[] = [`# Messages before compaction ${compactionId}`, ''];
  for (const view of summarized.value) {
    lines.push(`## ${view.kind}${view.toolName ? ` (${view.toolName})` : ''}`, '', view.text || view.blocks.map((b) => (b.type === 'toolCall' ? `→ ${b.name} ${JSON.stringify(b.args)}` : '')).join('\n'), '');
  }
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') });
  await vscode.window.showTextDocument(document, { preview: true });
}
