// "Fix with Arbor": a quick fix offered on every diagnostic (a code action in the light bulb and Ctrl+.)
// that sends the diagnostic, where it is and the code around it as a prompt in the focused chat
// (prompts/editor/fix-diagnostic.md). The agent then works as for any prompt: its edits ask as usual.
import * as vscode from 'vscode';
import { fixPrompt, type DiagnosticFix } from '../../app/editor-context';
import { spanOf } from '../editor/code-spans';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.fixWithArbor';

/** Lines of context on each side of the diagnostic's range. */
const CONTEXT_LINES = 8;

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticFix['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function codeText(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** The fix request for one diagnostic of a document. */
export function diagnosticFix(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): DiagnosticFix {
  const span = spanOf(document, diagnostic.range.start.line - CONTEXT_LINES, diagnostic.range.end.line + CONTEXT_LINES);
  const code = codeText(diagnostic.code);
  return {
    span,
    line: diagnostic.range.start.line + 1,
    severity: SEVERITY[diagnostic.severity],
    message: diagnostic.message,
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(code ? { code } : {}),
  };
}

class FixWithArbor implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    return context.diagnostics.slice(0, 3).map((diagnostic) => {
      const action = new vscode.CodeAction(vscode.l10n.t('Fix with Arbor'), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = { command: id, title: action.title, arguments: [document.uri, diagnostic] };
      return action;
    });
  }
}

async function fix(deps: SurfaceDeps, uri: unknown, diagnostic: unknown): Promise<boolean> {
  if (!(uri instanceof vscode.Uri) || !(diagnostic instanceof vscode.Diagnostic)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Fix with Arbor works on a problem in the editor: use the light bulb or Ctrl+. on it.'));
    return false;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const sent = (await deps.app.promptInChat?.(fixPrompt(diagnosticFix(document, diagnostic)))) ?? false;
  if (!sent) deps.log.warn('Fix with Arbor: the chat did not take the prompt');
  return sent;
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(id, (uri?: unknown, diagnostic?: unknown) => fix(deps, uri, diagnostic)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixWithArbor(), { providedCodeActionKinds: FixWithArbor.kinds }),
  );
}
