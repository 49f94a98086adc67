// The editor-knowledge tools: `diagnostics`, `definition`, `references` and `symbols`, read-only built-ins
// offered when the host has an EditorKnowledge (VS Code). Input paths are confined to the workspace like
// every tool's (resolveInWorkspace); results are capped by `limit` like grep's.
import { z } from 'zod';
import { renderPrompt } from '../../../core/prompts';
import { resolveInWorkspace, workspaceRootInfos } from '../paths';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, textOutput, type AgentTool, type ToolContext } from '../types';
import { cappedText, countBySeverity, diagnosticLine, insideWorkspace, locationLines, moreNote, place, SEVERITY_RANK, sortDiagnostics, uniqueLocations } from './format';
import type { EditorDiagnostic, EditorKnowledge, EditorLocation, EditorSymbol } from './knowledge';
import { positionFields, resolvePosition } from './position';

const limitField = z.number().int().min(1).optional().describe('Maximum number of results');

export const diagnosticsArgs = z.object({
  path: z.string().min(1).optional().describe('File to check, relative to the workspace root (default: every file the editor has problems for)'),
  severity: z.enum(['error', 'warning', 'information', 'hint']).optional().describe('Least severe problem to list (default: warning)'),
  limit: limitField,
});
export const positionArgs = z.object({ ...positionFields, limit: limitField });
export const symbolsArgs = z
  .object({
    path: z.string().min(1).optional().describe('File whose symbols (outline) to list'),
    query: z.string().min(1).max(200).optional().describe('Name (or part of one) to search for in the whole workspace'),
    limit: limitField,
  })
  .refine((args) => args.path !== undefined || args.query !== undefined, { message: 'give `path` (a file\'s outline) or `query` (a workspace search)' });

type DiagnosticsArgs = z.infer<typeof diagnosticsArgs>;
type PositionArgs = z.infer<typeof positionArgs>;
type SymbolsArgs = z.infer<typeof symbolsArgs>;

export const EDITOR_TOOL_NAMES = ['diagnostics', 'definition', 'references', 'symbols'] as const;

export function createEditorTools(knowledge: EditorKnowledge): AgentTool[] {
  const defaultLimit = String(DEFAULT_TOOL_LIMITS.grepDefaultLimit);
  return [
    defineTool<DiagnosticsArgs>({ name: 'diagnostics', description: renderPrompt('system/tools/diagnostics', { defaultLimit }), argsSchema: diagnosticsArgs, effect: { kind: 'readOnly' }, execute: (args, ctx) => diagnostics(knowledge, args, ctx) }),
    defineTool<PositionArgs>({ name: 'definition', description: renderPrompt('system/tools/definition', {}), argsSchema: positionArgs, effect: { kind: 'readOnly' }, execute: (args, ctx) => definition(knowledge, args, ctx) }),
    defineTool<PositionArgs>({ name: 'references', description: renderPrompt('system/tools/references', { defaultLimit }), argsSchema: positionArgs, effect: { kind: 'readOnly' }, execute: (args, ctx) => references(knowledge, args, ctx) }),
    defineTool<SymbolsArgs>({ name: 'symbols', description: renderPrompt('system/tools/symbols', { defaultLimit }), argsSchema: symbolsArgs, effect: { kind: 'readOnly' }, execute: (args, ctx) => symbols(knowledge, args, ctx) }),
  ];
}

/** A symbol's name and its container's are cut at this many characters. */
const NAME_CHARS = 200;

/** The result text within the output byte cap (`outputMaxBytes`, grep's); `byteCapped` in the details when cut. */
function capped(ctx: ToolContext, head: string, lines: readonly string[], notes: readonly string[], details: Record<string, unknown>) {
  const { text, byteCapped } = cappedText(head, lines, notes, limitsOf(ctx).outputMaxBytes);
  return textOutput(text, byteCapped ? { ...details, byteCapped } : details);
}

function limitOf(ctx: ToolContext, requested: number | undefined): number {
  const limits = limitsOf(ctx);
  return Math.min(requested ?? limits.grepDefaultLimit, limits.maxResultLimit);
}

async function diagnostics(knowledge: EditorKnowledge, args: DiagnosticsArgs, ctx: ToolContext) {
  const roots = await workspaceRootInfos(ctx.workspace);
  const target = args.path === undefined ? undefined : await resolveInWorkspace(ctx.workspace, args.path);
  const least = SEVERITY_RANK[args.severity ?? 'warning'];
  const found = await knowledge.diagnostics(target?.absolute);
  const severe = found.filter((d) => SEVERITY_RANK[d.severity] <= least && insideWorkspace(roots, d.path));
  const wanted = sortDiagnostics(await reallyInside(ctx.workspace, severe));
  const where = target ? target.display : 'the workspace';
  const limit = limitOf(ctx, args.limit);
  const details = { path: target?.display, count: wanted.length, truncated: wanted.length > limit };
  if (wanted.length === 0) {
    const scope = target ? '' : ' Only files the language servers have checked are known; give `path` to check a particular file.';
    return textOutput(`No problems reported in ${where} (at least as severe as ${args.severity ?? 'warning'}).${scope}`, details);
  }
  const files = new Set(wanted.map((d) => d.path)).size;
  const head = `${countBySeverity(wanted)} in ${files} file${files === 1 ? '' : 's'}${target ? '' : ' of the workspace'}:`;
  return capped(ctx, head, wanted.slice(0, limit).map((d) => diagnosticLine(roots, d)), moreNote(wanted.length, limit), details);
}

/** The problems whose file resolves inside the workspace (a folder linked out of it is refused, as for `read`). */
async function reallyInside(workspace: ToolContext['workspace'], list: readonly EditorDiagnostic[]): Promise<EditorDiagnostic[]> {
  const inside = new Map<string, boolean>();
  for (const path of new Set(list.map((d) => d.path))) {
    inside.set(path, await resolveInWorkspace(workspace, path).then(() => true, () => false));
  }
  return list.filter((d) => inside.get(d.path));
}

async function located(knowledge: EditorKnowledge, args: PositionArgs, ctx: ToolContext, find: (path: string, pos: EditorLocation['range']['start']) => Promise<EditorLocation[]>) {
  const target = await resolveInWorkspace(ctx.workspace, args.path);
  const at = await resolvePosition(knowledge, target.absolute, target.display, args);
  const found = uniqueLocations(await find(target.absolute, at.position));
  return { at, found, roots: await workspaceRootInfos(ctx.workspace) };
}

async function definition(knowledge: EditorKnowledge, args: PositionArgs, ctx: ToolContext) {
  const { at, found, roots } = await located(knowledge, args, ctx, (path, pos) => knowledge.definition(path, pos));
  if (found.length === 0) return textOutput(`No definition found for ${at.label}. Check the position, or the language server may not know this file type.`, { count: 0 });
  const limit = limitOf(ctx, args.limit);
  const lines = await locationLines(knowledge, ctx.workspace, roots, found.slice(0, limit));
  return capped(ctx, `Definition of ${at.label}:`, lines, moreNote(found.length, limit), { count: found.length });
}

async function references(knowledge: EditorKnowledge, args: PositionArgs, ctx: ToolContext) {
  const { at, found, roots } = await located(knowledge, args, ctx, (path, pos) => knowledge.references(path, pos));
  if (found.length === 0) return textOutput(`No references found for ${at.label}.`, { count: 0 });
  const limit = limitOf(ctx, args.limit);
  const lines = await locationLines(knowledge, ctx.workspace, roots, found.slice(0, limit));
  const head = `${found.length} reference${found.length === 1 ? '' : 's'} to ${at.label}:`;
  return capped(ctx, head, lines, moreNote(found.length, limit), { count: found.length, truncated: found.length > limit });
}

async function symbols(knowledge: EditorKnowledge, args: SymbolsArgs, ctx: ToolContext) {
  const roots = await workspaceRootInfos(ctx.workspace);
  const limit = limitOf(ctx, args.limit);
  if (args.path !== undefined) {
    const target = await resolveInWorkspace(ctx.workspace, args.path);
    if ((await knowledge.text(target.absolute)) === undefined) throw new ToolError(`File not found or not readable: ${target.display}.`);
    const outline = flatten(await knowledge.documentSymbols(target.absolute));
    if (outline.length === 0) return textOutput(`No symbols reported for ${target.display}.`, { count: 0 });
    const lines = outline.slice(0, limit).map(({ symbol, depth }) => `${'  '.repeat(depth)}${symbolLine(symbol)}`);
    return capped(ctx, `Symbols in ${target.display}:`, lines, moreNote(outline.length, limit), { count: outline.length });
  }
  const found = await knowledge.workspaceSymbols(args.query!);
  if (found.length === 0) return textOutput(`No symbols matching "${args.query}" in the workspace.`, { count: 0 });
  const lines = found.slice(0, limit).map((s) => `${symbolLine(s)} — ${place(roots, s.path, s.range)}${s.containerName ? ` (in ${s.containerName.slice(0, NAME_CHARS)})` : ''}`);
  return capped(ctx, `Symbols matching "${args.query}":`, lines, moreNote(found.length, limit), { count: found.length });
}

function symbolLine(symbol: EditorSymbol): string {
  const { start, end } = symbol.range;
  const lines = start.line === end.line ? `line ${start.line + 1}` : `lines ${start.line + 1}-${end.line + 1}`;
  const detail = symbol.detail ? ` ${symbol.detail.slice(0, 120)}` : '';
  return `${symbol.kind} ${symbol.name.slice(0, NAME_CHARS)}${detail} (${lines})`;
}

/** A document's symbol tree in order, with its depth; guards against a provider's cyclic tree. */
function flatten(symbols: readonly EditorSymbol[], depth = 0, out: { symbol: EditorSymbol; depth: number }[] = []) {
  for (const symbol of symbols) {
    out.push({ symbol, depth });
    if (symbol.children && depth < 16) flatten(symbol.children, depth + 1, out);
  }
  return out;
}

export type { EditorDiagnostic };
