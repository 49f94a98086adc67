// The tools that come from the editor, wired into the live tool list: the editor-knowledge tools
// (registry source `editor`), VS Code's language-model tools the user opted in to (`vscode-lm`), the
// "Problems after this edit" feedback and the chooser command. Outside VS Code none of these exist.
import * as vscode from 'vscode';
import { createEditFeedback, type EditFeedback } from '../agent/tools/editor/after-edit';
import { createEditorTools } from '../agent/tools/editor/tools';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import type { AgentTool, WorkspaceRoots } from '../agent/tools/types';
import * as chooseVscodeTools from './commands/choose-vscode-tools';
import { VscodeEditorKnowledge } from './editor-knowledge';
import { VscodeLmTools } from './lm-tools';
import { readEditorToolSettings } from './tool-settings';

export const EDITOR_SOURCE = 'editor';

export interface EditorTools extends vscode.Disposable {
  editFeedback: EditFeedback;
}

export function registerEditorTools(registry: ToolRegistry, workspace: WorkspaceRoots): EditorTools {
  const knowledge = new VscodeEditorKnowledge();
  registry.set(EDITOR_SOURCE, createEditorTools(knowledge));
  const lmTools = new VscodeLmTools(registry, readEditorToolSettings);
  const command = chooseVscodeTools.register();
  return {
    editFeedback: createEditFeedback(knowledge, { workspace, enabled: () => readEditorToolSettings().diagnosticsAfterEdit }),
    dispose: () => {
      command.dispose();
      lmTools.dispose();
      registry.remove(EDITOR_SOURCE);
    },
  };
}

/**
 * The registry as the array the app takes today, kept equal to `registry.list()` in place so that every
 * request (which reads the array) sees tools come and go.
 * TODO(seam): the seam's wiring passes the registry itself through the app; then this bridge goes.
 */
export function liveToolList(registry: ToolRegistry): readonly AgentTool[] {
  const tools: AgentTool[] = [...registry.list()];
  registry.onDidChange(() => tools.splice(0, tools.length, ...registry.list()));
  return tools;
}
