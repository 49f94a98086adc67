// "Arbor: Add Selection to Chat" (editor context menu, Ctrl+Alt+Shift+A): the selected lines, quoted with
// their file and line range, are added to the focused chat's draft; with nothing selected, the file itself
// as an @-mention (its content goes with the message when it is sent).
import * as vscode from 'vscode';
import { mentionOf, quoteSpan } from '../../app/editor-context';
import { chatPath, selectionSpan, spanOf } from '../editor/code-spans';
import type { SurfaceDeps } from './surface-deps';

export const id = 'arbor.addSelectionToChat';

/** A file quoted whole (its path cannot be an @-mention) is cut after this many lines. */
const QUOTED_FILE_LINES = 400;

/** What the editor adds: each non-empty selection quoted, or the file when nothing is selected. */
export function editorAddition(editor: vscode.TextEditor): string {
  const selections = editor.selections.filter((s) => !s.isEmpty);
  if (selections.length > 0) return selections.map((s) => quoteSpan(selectionSpan(editor.document, s))).join('\n\n');
  const mention = mentionOf(chatPath(editor.document.uri));
  return mention ?? quoteSpan(spanOf(editor.document, 0, Math.min(editor.document.lineCount, QUOTED_FILE_LINES) - 1));
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a file in the editor to add it to the Arbor chat.'));
      return false;
    }
    const delivered = (await deps.app.addToChatInput?.(editorAddition(editor))) ?? false;
    if (!delivered) deps.log.warn('Add Selection to Chat: the chat did not receive the text (its view was not ready)');
    return delivered;
  });
}
