// What the editor knows about the code (problems, definitions, references, symbols), as a host interface
// the core tools read. The VS Code host implements it with the language features of the running editor
// (src/vscode/editor-knowledge.ts); outside VS Code (CLI, tests) there is none and the editor tools are
// absent. Every path here is absolute; positions are 0-based like VS Code's. See docs/architecture.md,
// "Editor knowledge".

export interface EditorPosition {
  /** 0-based line */
  line: number;
  /** 0-based UTF-16 column */
  character: number;
}

export interface EditorRange {
  start: EditorPosition;
  end: EditorPosition;
}

export interface EditorLocation {
  /** absolute file path */
  path: string;
  range: EditorRange;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface EditorDiagnostic {
  path: string;
  range: EditorRange;
  severity: DiagnosticSeverity;
  message: string;
  /** the tool that reported it (e.g. "ts", "eslint") */
  source?: string;
  code?: string;
}

export interface EditorSymbol {
  name: string;
  /** VS Code's SymbolKind name, e.g. "Function", "Class" */
  kind: string;
  path: string;
  range: EditorRange;
  containerName?: string;
  detail?: string;
  children?: EditorSymbol[];
}

export interface EditorKnowledge {
  /** Problems of one file (opened for its language server first), or of every file the editor knows. */
  diagnostics(path?: string): Promise<EditorDiagnostic[]>;
  definition(path: string, position: EditorPosition): Promise<EditorLocation[]>;
  references(path: string, position: EditorPosition): Promise<EditorLocation[]>;
  documentSymbols(path: string): Promise<EditorSymbol[]>;
  workspaceSymbols(query: string): Promise<EditorSymbol[]>;
  /** What the editor reports now for these files, without opening them or waiting (before an edit). */
  knownDiagnostics(paths: readonly string[]): EditorDiagnostic[];
  /** The file's text as the editor has it (an unsaved buffer wins over the disk); undefined when unreadable. */
  text(path: string): Promise<string | undefined>;
  /**
   * After a tool wrote `paths`: makes the language servers look at them and waits (at most `timeoutMs`,
   * less once the problems of those files changed and settled) for their new problems.
   */
  settledDiagnostics(paths: readonly string[], options: { timeoutMs: number; signal: AbortSignal }): Promise<EditorDiagnostic[]>;
}
