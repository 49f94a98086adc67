// The EditorKnowledge host (src/agent/tools/editor/knowledge.ts) over VS Code's language features: the
// Problems panel's diagnostics and the definition, reference and symbol providers every language
// extension registers (TypeScript's ships with VS Code). Paths arrive already confined to the workspace by
// the core tools; results are converted to plain absolute paths and 0-based positions.
// Language servers report problems only for files open in an editor tab (TypeScript's does so for tabs,
// not for documents merely loaded): a file whose problems are asked for is shown in a preview tab without
// taking the focus, beside the chat when the chat is an editor tab.
import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { DiagnosticSeverity, EditorDiagnostic, EditorKnowledge, EditorLocation, EditorPosition, EditorRange, EditorSymbol } from '../agent/tools/editor/knowledge';

/** How long the `diagnostics` tool waits for a language server to report on a file it just opened. */
const FIRST_REPORT_MS = 3000;
/** Problems arrive in steps (syntax, then semantics): quiet this long counts as settled. */
const QUIET_MS = 300;
const MAX_TEXT_BYTES = 10 * 1024 * 1024;
/** Most files one call opens in tabs (an edit of many files does not flood the editor). */
const MAX_SHOWN = 3;
const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'information', 'hint'];

export class VscodeEditorKnowledge implements EditorKnowledge {
  async diagnostics(path?: string): Promise<EditorDiagnostic[]> {
    if (path === undefined) return vscode.languages.getDiagnostics().flatMap(([uri, list]) => (uri.scheme === 'file' ? list.map((d) => diagnosticOf(uri.fsPath, d)) : []));
    const uri = vscode.Uri.file(path);
    const settled = inTab(uri) ? Promise.resolve() : problemsSettle([uri], FIRST_REPORT_MS, new AbortController().signal);
    await showInTabs([uri]);
    await settled;
    return this.knownDiagnostics([path]);
  }

  knownDiagnostics(paths: readonly string[]): EditorDiagnostic[] {
    return paths.flatMap((path) => vscode.languages.getDiagnostics(vscode.Uri.file(path)).map((d) => diagnosticOf(path, d)));
  }

  async definition(path: string, position: EditorPosition): Promise<EditorLocation[]> {
    return this.locations('vscode.executeDefinitionProvider', path, position);
  }

  async references(path: string, position: EditorPosition): Promise<EditorLocation[]> {
    return this.locations('vscode.executeReferenceProvider', path, position);
  }

  async documentSymbols(path: string): Promise<EditorSymbol[]> {
    const uri = vscode.Uri.file(path);
    await vscode.workspace.openTextDocument(uri);
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
    return (found ?? []).map((s) => symbolOf(path, s));
  }

  async workspaceSymbols(query: string): Promise<EditorSymbol[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
    return (found ?? []).filter((s) => s.location.uri.scheme === 'file').map((s) => symbolOf(s.location.uri.fsPath, s));
  }

  async text(path: string): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
    if (open) return open.getText();
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_TEXT_BYTES) return undefined;
    return readFile(path, 'utf8').catch(() => undefined);
  }

  async settledDiagnostics(paths: readonly string[], options: { timeoutMs: number; signal: AbortSignal }): Promise<EditorDiagnostic[]> {
    const uris = paths.map((path) => vscode.Uri.file(path));
    const settled = problemsSettle(uris, options.timeoutMs, options.signal);
    // A document in a tab follows the file on disk by itself; another is shown so its language server looks at it.
    await showInTabs(uris);
    await settled;
    return this.knownDiagnostics(paths);
  }

  private async locations(command: string, path: string, position: EditorPosition): Promise<EditorLocation[]> {
    const uri = vscode.Uri.file(path);
    await vscode.workspace.openTextDocument(uri);
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(command, uri, new vscode.Position(position.line, position.character));
    return (found ?? []).flatMap(locationOf);
  }
}

function inTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key));
}

/** Shows the files not in a tab yet in preview tabs, keeping the focus (and the chat, when it is a tab, visible). */
async function showInTabs(uris: readonly vscode.Uri[]): Promise<void> {
  const active = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const viewColumn = active instanceof vscode.TabInputWebview ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  const missing = uris.filter((u) => !inTab(u)).slice(0, MAX_SHOWN);
  // one preview tab replaces another: several files get tabs of their own
  const preview = missing.length === 1;
  for (const uri of missing) {
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview, preserveFocus: true, viewColumn });
    } catch {
      // a file the editor cannot open (binary, deleted): its problems are simply not known
    }
  }
}

/**
 * Resolves once the problems of `uris` changed and then stayed quiet for QUIET_MS, or after `timeoutMs`,
 * or on abort, whichever comes first.
 */
function problemsSettle(uris: readonly vscode.Uri[], timeoutMs: number, signal: AbortSignal): Promise<void> {
  const wanted = new Set(uris.map((uri) => uri.toString()));
  return new Promise((resolve) => {
    let quiet: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(overall);
      clearTimeout(quiet);
      subscription.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const overall = setTimeout(done, timeoutMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((uri) => wanted.has(uri.toString()))) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, QUIET_MS);
    });
    signal.addEventListener('abort', done, { once: true });
  });
}

function rangeOf(range: vscode.Range): EditorRange {
  return { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } };
}

function diagnosticOf(path: string, d: vscode.Diagnostic): EditorDiagnostic {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return {
    path,
    range: rangeOf(d.range),
    severity: SEVERITIES[d.severity] ?? 'error',
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
  };
}

function locationOf(found: vscode.Location | vscode.LocationLink): EditorLocation[] {
  const uri = 'targetUri' in found ? found.targetUri : found.uri;
  if (uri.scheme !== 'file') return [];
  const range = 'targetUri' in found ? (found.targetSelectionRange ?? found.targetRange) : found.range;
  return [{ path: uri.fsPath, range: rangeOf(range) }];
}

function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind as unknown as Record<number, string>)[kind] ?? 'Symbol';
}

/** VS Code's document symbol command returns objects that are both kinds: a tree node wins. */
function symbolOf(path: string, s: vscode.DocumentSymbol | vscode.SymbolInformation): EditorSymbol {
  if (!('selectionRange' in s)) {
    return { name: s.name, kind: kindName(s.kind), path, range: rangeOf(s.location.range), ...(s.containerName ? { containerName: s.containerName } : {}) };
  }
  return {
    name: s.name,
    kind: kindName(s.kind),
    path,
    range: rangeOf(s.range),
    ...(s.detail ? { detail: s.detail } : {}),
    ...(s.children?.length ? { children: s.children.map((c) => symbolOf(path, c)) } : {}),
  };
}
