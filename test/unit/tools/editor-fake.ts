// A scripted EditorKnowledge for the editor tools' unit tests: files are read from disk (a missing file
// reads as undefined, like the VS Code host), every other answer is set by the test, every call recorded.
import { readFile } from 'node:fs/promises';
import type { EditorDiagnostic, EditorKnowledge, EditorLocation, EditorPosition, EditorSymbol } from '../../../src/agent/tools/editor/knowledge';

export class FakeKnowledge implements EditorKnowledge {
  diagnosticsList: EditorDiagnostic[] = [];
  /** what settledDiagnostics reports (after an edit) */
  afterEdit: EditorDiagnostic[] = [];
  definitions: EditorLocation[] = [];
  referenceList: EditorLocation[] = [];
  outline: EditorSymbol[] = [];
  workspaceSymbolList: EditorSymbol[] = [];
  readonly calls: { method: string; path?: string; position?: EditorPosition; query?: string; paths?: readonly string[] }[] = [];

  async diagnostics(path?: string) {
    this.calls.push({ method: 'diagnostics', ...(path ? { path } : {}) });
    return path ? this.diagnosticsList.filter((d) => d.path === path) : this.diagnosticsList;
  }
  knownDiagnostics(paths: readonly string[]) {
    this.calls.push({ method: 'knownDiagnostics', paths });
    return this.diagnosticsList.filter((d) => paths.includes(d.path));
  }
  async definition(path: string, position: EditorPosition) {
    this.calls.push({ method: 'definition', path, position });
    return this.definitions;
  }
  async references(path: string, position: EditorPosition) {
    this.calls.push({ method: 'references', path, position });
    return this.referenceList;
  }
  async documentSymbols(path: string) {
    this.calls.push({ method: 'documentSymbols', path });
    return this.outline;
  }
  async workspaceSymbols(query: string) {
    this.calls.push({ method: 'workspaceSymbols', query });
    return this.workspaceSymbolList;
  }
  async text(path: string) {
    return readFile(path, 'utf8').catch(() => undefined);
  }
  async settledDiagnostics(paths: readonly string[]) {
    this.calls.push({ method: 'settledDiagnostics', paths });
    return this.afterEdit;
  }
}

export function at(line: number, character: number, length = 1) {
  return { start: { line, character }, end: { line, character: character + length } };
}

export function diag(path: string, line: number, message: string, severity: EditorDiagnostic['severity'] = 'error', code?: string): EditorDiagnostic {
  return { path, range: at(line, 2), severity, message, source: 'ts', ...(code ? { code } : {}) };
}
