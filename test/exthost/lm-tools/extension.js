// Test-only extension (loaded next to Arbor by test/harness/exthost.mjs): registers the language-model tool
// `arbor_test_echo` with VS Code, so test/exthost/vscode-tools.test.ts checks that Arbor offers another
// extension's tool when the user enabled it, asks before running it, invokes it through vscode.lm and shows
// its result. Every invocation is recorded in `exports.invocations`.
const vscode = require('vscode');

// a 1x1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const state = { invocations: [] };

function parts(input) {
  const out = [new vscode.LanguageModelTextPart(`echo: ${input.text}`)];
  if (vscode.LanguageModelDataPart) {
    out.push(vscode.LanguageModelDataPart.json({ length: input.text.length }));
    if (input.image) out.push(vscode.LanguageModelDataPart.image(new Uint8Array(PNG), 'image/png'));
  }
  return out;
}

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerTool('arbor_test_echo', {
      invoke(options, token) {
        state.invocations.push({ input: options.input, cancelled: token.isCancellationRequested });
        if (options.input.text === 'FAIL') throw new Error('the echo tool was asked to fail');
        return new vscode.LanguageModelToolResult(parts(options.input));
      },
    }),
  );
  return state;
}

module.exports = { activate, state };
