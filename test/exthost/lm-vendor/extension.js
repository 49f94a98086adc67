// Test-only extension (loaded next to Arbor by test/harness/exthost.mjs): registers the vendor
// "arbor-test" with one scripted chat model, so test/exthost/vscode-lm.test.ts drives Arbor's VS Code
// Language Model provider against the real `vscode.lm` plumbing. Every request is recorded in `exports`.
const vscode = require('vscode');

const MODEL = {
  id: 'arbor-echo',
  name: 'Arbor Echo',
  family: 'arbor-echo',
  version: '1',
  maxInputTokens: 12345,
  maxOutputTokens: 2048,
  capabilities: { toolCalling: true },
};

const requests = [];
const state = { requests, cancelled: 0, counted: 0 };

function textOf(message) {
  return message.content.map((part) => {
    if (part instanceof vscode.LanguageModelTextPart) return part.value;
    if (part instanceof vscode.LanguageModelToolResultPart) return `RESULT(${part.callId}):` + part.content.map((c) => c.value ?? '').join('');
    if (part instanceof vscode.LanguageModelToolCallPart) return `CALL(${part.callId}):${part.name}`;
    return '';
  }).join('');
}

/** Streams `text` in small pieces, stopping when the request is cancelled. */
async function streamText(text, progress, token, delayMs) {
  for (let i = 0; i < text.length; i += 5) {
    if (token.isCancellationRequested) {
      state.cancelled++;
      return;
    }
    progress.report(new vscode.LanguageModelTextPart(text.slice(i, i + 5)));
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

async function respond(messages, options, progress, token) {
  const texts = messages.map(textOf);
  const last = texts[texts.length - 1] ?? '';
  requests.push({ texts, tools: (options.tools ?? []).map((t) => t.name), toolMode: options.toolMode });
  if (last.includes('PLEASE DENY')) throw vscode.LanguageModelError.NoPermissions('the test vendor says no');
  if (last.includes('PLEASE BE SLOW')) return streamText('slow '.repeat(400), progress, token, 50);
  if (last.includes('PLEASE BE LONG')) return streamText('long reply '.repeat(400), progress, token, 0);
  if (last.includes('PLEASE USE A TOOL')) {
    progress.report(new vscode.LanguageModelTextPart('Listing. '));
    progress.report(new vscode.LanguageModelToolCallPart('call-ls-1', 'ls', { path: '.' }));
    return;
  }
  if (last.startsWith('RESULT(call-ls-1)')) return streamText('The tool answered.', progress, token, 0);
  return streamText(`Echo reply ${requests.length}.`, progress, token, 0);
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('arbor-test', {
    provideLanguageModelChatInformation: () => [MODEL],
    provideLanguageModelChatResponse: (_model, messages, options, progress, token) => respond(messages, options, progress, token),
    provideTokenCount: async (_model, text) => {
      state.counted++;
      return typeof text === 'string' ? text.length : textOf(text).length;
    },
  }));
  return state;
}

module.exports = { activate };
