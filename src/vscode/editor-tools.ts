// The tools that come from the editor, wired into the live tool list: the editor-knowledge tools
// (registry source `editor`), VS Code's language-model tools the user opted in to (`vscode-lm`), the
// "Problems after this edit" feedback and the chooser command. Outside VS Code none of these exist.
import * as vscode from 'vscode';
import { createEditFeedback, type EditFeedback } from '../agent/tools/editor/after-edit';
import { createEditorTools } from '../agent/tools/editor/tools';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { WorkspaceRoots } from '../agent/tools/types';
import * as chooseVscodeTools from './commands/choose-vscode-tools';
import { VscodeEditorKnowledge } from './editor-knowledge';
import { VscodeLmTools } from './lm-tools';
import type { EditorToolSettings } from '../app/editor-tool-settings';

export const EDITOR_SOURCE = 'editor';

export interface EditorTools extends vscode.Disposable {
  editFeedback: EditFeedback;
}

/** `settings` gives the current `arbor.tools.diagnosticsAfterEdit` and `arbor.vscodeTools.*` (the settings module's). */
export function registerEditorTools(registry: ToolRegistry, workspace: WorkspaceRoots, settings: () => EditorToolSettings): EditorTools {
  const knowledge = new VscodeEditorKnowledge();
  registry.set(EDITOR_SOURCE, createEditorTools(knowledge));
  const lmTools = new VscodeLmTools(registry, settings);
  const command = chooseVscodeTools.register(settings);
  return {
    editFeedback: createEditFeedback(knowledge, { workspace, enabled: () => settings().diagnosticsAfterEdit }),
    dispose: () => {
      command.dispose();
      lmTools.dispose();
      registry.remove(EDITOR_SOURCE);
    },
  };
}
