// Where in a file the model means: models count lines well but columns badly, so a position is a path
// plus a line and either a column or the name of a symbol on that line (or a symbol alone: its first
// whole-word occurrence in the file). Lines and columns the model sees are 1-based; the host's are 0-based.
import { z } from 'zod';
import { ToolError } from '../types';
import type { EditorKnowledge, EditorPosition } from './knowledge';

export const positionFields = {
  path: z.string().min(1, 'path must not be empty').describe('File, relative to the workspace root'),
  symbol: z.string().min(1).max(200).optional().describe('Name of the symbol (identifier) to look up; found on `line` if given, else its first occurrence in the file'),
  line: z.number().int().min(1).optional().describe('1-based line of the symbol'),
  column: z.number().int().min(1).optional().describe('1-based column (instead of `symbol`)'),
};

export interface PositionArgs {
  symbol?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

export interface ResolvedPosition {
  position: EditorPosition;
  /** what to call it in the result: `name` or `line:column` */
  label: string;
}

/** The file's lines, or a ToolError naming the file when the editor cannot read it. */
export async function fileLines(knowledge: EditorKnowledge, absolute: string, display: string): Promise<string[]> {
  const text = await knowledge.text(absolute);
  if (text === undefined) throw new ToolError(`File not found or not readable: ${display}.`);
  return text.split(/\r?\n/);
}

export async function resolvePosition(knowledge: EditorKnowledge, absolute: string, display: string, args: PositionArgs): Promise<ResolvedPosition> {
  if (args.symbol === undefined && (args.line === undefined || args.column === undefined)) {
    throw new ToolError('Say where: give `symbol` (a name, optionally with its `line`), or `line` and `column`.');
  }
  const lines = await fileLines(knowledge, absolute, display);
  if (args.line !== undefined && args.line > lines.length) {
    throw new ToolError(`Line ${args.line} is past the end of ${display} (${lines.length} lines).`);
  }
  if (args.symbol === undefined) return atColumn(lines, display, args.line!, args.column!);
  return args.line === undefined ? inFile(lines, display, args.symbol) : onLine(lines, display, args.line, args.symbol);
}

function atColumn(lines: string[], display: string, line: number, column: number): ResolvedPosition {
  const text = lines[line - 1]!;
  if (column > text.length + 1) throw new ToolError(`Column ${column} is past the end of line ${line} of ${display} (${text.length} characters).`);
  return { position: { line: line - 1, character: column - 1 }, label: `${display}:${line}:${column}` };
}

function onLine(lines: string[], display: string, line: number, symbol: string): ResolvedPosition {
  const column = findSymbol(lines[line - 1]!, symbol);
  if (column === undefined) {
    throw new ToolError(`"${symbol}" does not occur on line ${line} of ${display}, which reads: ${lines[line - 1]!.trim().slice(0, 200)}`);
  }
  return { position: { line: line - 1, character: column }, label: `\`${symbol}\` (${display}:${line}:${column + 1})` };
}

function inFile(lines: string[], display: string, symbol: string): ResolvedPosition {
  for (const whole of [true, false]) {
    for (let i = 0; i < lines.length; i++) {
      const column = findSymbol(lines[i]!, symbol, whole);
      if (column !== undefined) return { position: { line: i, character: column }, label: `\`${symbol}\` (${display}:${i + 1}:${column + 1})` };
    }
  }
  throw new ToolError(`"${symbol}" does not occur in ${display}.`);
}

/** 0-based column of `symbol` in `text`: a whole-word occurrence first, else (unless `wholeOnly`) any. */
export function findSymbol(text: string, symbol: string, wholeOnly = false): number | undefined {
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegex(symbol)}(?![\\p{L}\\p{N}_$])`, 'u').exec(text);
  if (word) return word.index;
  if (wholeOnly) return undefined;
  const index = text.indexOf(symbol);
  return index >= 0 ? index : undefined;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
