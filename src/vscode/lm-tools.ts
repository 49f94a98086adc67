// Offers the tools of VS Code's language-model tool registry (`vscode.lm.tools`) that the user opted in to
// (arbor.vscodeTools.enabled) as the registry source `vscode-lm`, and invokes them with
// `vscode.lm.invokeTool` (no chat request token: Arbor asks for approval itself). The list follows the
// editor: settings and extension changes refresh it at once, and a light poll catches tools that come and
// go otherwise (VS Code's own MCP servers starting), since the API has no change event.
import * as vscode from 'vscode';
import type { ToolRegistry } from '../agent/tools/tool-registry';
import { adaptOffered, offeredLmTools, offeredSignature, type LmInvoke, type LmToolInfo } from './lm-tool-adapter';
import type { EditorToolSettings } from '../app/editor-tool-settings';
import { Disposable } from './disposable';

export const VSCODE_LM_SOURCE = 'vscode-lm';
const POLL_MS = 5000;

/** The part of `vscode.lm` (stable since 1.95, newer than the @types/vscode Arbor builds against) used here. */
interface LmToolsApi {
  readonly tools: readonly LmToolInfo[];
  invokeTool(name: string, options: { input: object; toolInvocationToken: undefined }, token?: vscode.CancellationToken): Thenable<{ content: unknown[] }>;
}

export function lmToolsApi(): LmToolsApi | undefined {
  const lm = vscode.lm as unknown as Partial<LmToolsApi>;
  return Array.isArray(lm.tools) && typeof lm.invokeTool === 'function' ? (lm as LmToolsApi) : undefined;
}

/** vscode.lm.invokeTool with the tool call's abort signal as its cancellation token. */
export const invokeLmTool: LmInvoke = async (name, input, signal) => {
  const api = lmToolsApi();
  if (!api) throw new Error('this version of VS Code has no language-model tools');
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await api.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
  } finally {
    signal.removeEventListener('abort', cancel);
    source.dispose();
  }
};

export class VscodeLmTools extends Disposable {
  private readonly timer: NodeJS.Timeout;
  private signature = '';

  constructor(
    private readonly registry: ToolRegistry,
    private readonly settings: () => EditorToolSettings,
  ) {
    super();
    this.register(vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration('arbor.vscodeTools') && this.refresh()));
    this.register(vscode.extensions.onDidChange(() => this.refresh()));
    this.timer = setInterval(() => this.refresh(), POLL_MS);
    this.timer.unref?.();
    this.refresh();
  }

  /** Replaces the `vscode-lm` source when the offered tools or the user's choice changed. */
  refresh(): void {
    const infos = lmToolsApi()?.tools ?? [];
    const settings = this.settings();
    const choice = { enabled: settings.vscodeToolsEnabled, readOnly: settings.vscodeToolsReadOnly };
    const offered = offeredLmTools(infos, choice.enabled);
    const signature = offeredSignature(offered, choice);
    if (signature === this.signature) return;
    this.signature = signature;
    this.registry.set(VSCODE_LM_SOURCE, adaptOffered(offered, choice.readOnly, invokeLmTool));
  }

  override dispose(): void {
    clearInterval(this.timer);
    super.dispose();
    this.registry.remove(VSCODE_LM_SOURCE);
  }
}
