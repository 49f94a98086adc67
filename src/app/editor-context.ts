// What the editor's entry points put into the chat (docs/architecture.md, "Start from the editor"): a selection
// quoted as a fenced block headed by its file and line range, a file as an @-mention (or quoted when its path
// cannot be one), and the prompt "Fix with Arbor" sends for a diagnostic (prompts/editor/fix-diagnostic.md).
// Pure: the VS Code commands pass plain values in.
import { loadTemplate, renderTemplate } from '../core/prompts';

export interface CodeSpan {
  /** workspace-relative path with `/` separators */
  path: string;
  /** 1-based, inclusive */
  startLine: number;
  endLine: number;
  /** VS Code's language id, used as the fence's info string */
  languageId: string;
  text: string;
}

/** A fence longer than any backtick run in `text`, so the quoted code cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function lineRange(span: Pick<CodeSpan, 'startLine' | 'endLine'>): string {
  return span.startLine === span.endLine ? `line ${span.startLine}` : `lines ${span.startLine}-${span.endLine}`;
}

/** Safe as a fence info string: letters, digits and a few marks (a language id never needs more). */
function infoString(languageId: string): string {
  return /^[\w+#.-]{1,40}$/.test(languageId) ? languageId : '';
}

/** The selection as the user's draft shows it: `path` (lines a-b), then the code in a fence. */
export function quoteSpan(span: CodeSpan): string {
  const fence = fenceFor(span.text);
  const body = span.text.endsWith('\n') ? span.text : `${span.text}\n`;
  return `\`${span.path}\` (${lineRange(span)}):\n${fence}${infoString(span.languageId)}\n${body}${fence}`;
}

/** An @-mention when the path can be one (no spaces or quote marks), else undefined. */
export function mentionOf(path: string): string | undefined {
  return /^[^\s@`"'<>]+$/.test(path) ? `@${path}` : undefined;
}

export interface DiagnosticFix {
  span: CodeSpan;
  /** the diagnostic's own line (1-based) */
  line: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

/** The prompt "Fix with Arbor" sends: the diagnostic, where it is, and the code around it. */
export function fixPrompt(fix: DiagnosticFix): string {
  const origin = [fix.source, fix.code].filter((part) => part && part.trim() !== '').join(' ');
  const severity = fix.severity[0]!.toUpperCase() + fix.severity.slice(1);
  const fence = fenceFor(fix.span.text);
  const body = fix.span.text.endsWith('\n') ? fix.span.text : `${fix.span.text}\n`;
  return renderTemplate(loadTemplate('editor/fix-diagnostic'), {
    path: fix.span.path,
    line: String(fix.line),
    severity,
    message: fix.message.replace(/\s*\n\s*/g, ' ').trim(),
    origin: origin ? ` (${origin})` : '',
    firstLine: String(fix.span.startLine),
    lastLine: String(fix.span.endLine),
    code: `${fence}${infoString(fix.span.languageId)}\n${body}${fence}`,
  }).trim();
}
