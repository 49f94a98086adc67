// How editor knowledge reads to the model: `path:line:column` (workspace-relative, 1-based, like grep's
// output) with the line's text, one per line, at most `limit` of them and a note of how many were left out.
// Paths outside the workspace (a library's declaration file) stay absolute so the model can tell, and
// their lines are not shown: only files the `read` tool could read are quoted.
import { displayPathSync, isInside, resolveInWorkspace, type RootInfo } from '../paths';
import { cutLine } from '../text';
import type { WorkspaceRoots } from '../types';
import type { EditorDiagnostic, EditorKnowledge, EditorLocation, EditorRange } from './knowledge';

const PREVIEW_CHARS = 200;
const MESSAGE_CHARS = 1000;

export function place(roots: readonly RootInfo[], path: string, range: EditorRange): string {
  return `${displayPathSync(roots, path)}:${range.start.line + 1}:${range.start.character + 1}`;
}

export function insideWorkspace(roots: readonly RootInfo[], path: string): boolean {
  return roots.some((root) => isInside(root.real, path) || isInside(root.lexical, path));
}

/** The lines of a file inside the workspace (symbolic links leading out are refused), else undefined. */
async function confinedLines(knowledge: EditorKnowledge, workspace: WorkspaceRoots, path: string): Promise<string[] | undefined> {
  const resolved = await resolveInWorkspace(workspace, path).catch(() => undefined);
  if (!resolved) return undefined;
  return (await knowledge.text(resolved.absolute).catch(() => undefined))?.split(/\r?\n/);
}

/** `path:line:col: text of that line` for each location, the file texts read once each. */
export async function locationLines(knowledge: EditorKnowledge, workspace: WorkspaceRoots, roots: readonly RootInfo[], locations: readonly EditorLocation[]): Promise<string[]> {
  const texts = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (path: string) => {
    if (!texts.has(path)) texts.set(path, confinedLines(knowledge, workspace, path));
    return texts.get(path)!;
  };
  const out: string[] = [];
  for (const location of locations) {
    const line = (await linesOf(location.path))?.[location.range.start.line];
    const preview = line === undefined ? '' : `: ${cutLine(line.trim(), PREVIEW_CHARS)}`;
    out.push(`${place(roots, location.path, location.range)}${preview}`);
  }
  return out;
}

/** Same file and start: one entry (providers often report a definition twice). */
export function uniqueLocations(locations: readonly EditorLocation[]): EditorLocation[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = `${l.path}\0${l.range.start.line}\0${l.range.start.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * `head` and as many `lines` as fit in `maxBytes` (UTF-8), then `notes`; a cut is said, like grep's byte cap,
 * so a provider's thousands of long results cannot flood the model's context.
 */
export function cappedText(head: string, lines: readonly string[], notes: readonly string[], maxBytes: number): { text: string; byteCapped: boolean } {
  const kept: string[] = [head];
  let bytes = Buffer.byteLength(head, 'utf8');
  for (const line of lines) {
    bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > maxBytes) {
      const cut = `[Output cut at ${maxBytes} bytes after ${kept.length - 1} of ${lines.length} results. Lower \`limit\` or narrow the request.]`;
      return { text: [...kept, cut, ...notes].join('\n'), byteCapped: true };
    }
    kept.push(line);
  }
  return { text: [...kept, ...notes].join('\n'), byteCapped: false };
}

export function moreNote(total: number, shown: number): string[] {
  return total > shown ? [`… ${total - shown} more not shown (raise \`limit\` to see more).`] : [];
}

export const SEVERITY_RANK: Record<EditorDiagnostic['severity'], number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Errors first, then by file and position. */
export function sortDiagnostics(list: readonly EditorDiagnostic[]): EditorDiagnostic[] {
  return [...list].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      a.path.localeCompare(b.path) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
}

/** `src/a.ts:3:7: error: Type … [ts 2322]`; a long or multi-line message is cut and indented. */
export function diagnosticLine(roots: readonly RootInfo[], d: EditorDiagnostic): string {
  const message = cutLine(d.message.trim(), MESSAGE_CHARS).replace(/\r?\n/g, '\n    ');
  const origin = [d.source, d.code].filter((part) => part !== undefined && part !== '').join(' ');
  return `${place(roots, d.path, d.range)}: ${d.severity}: ${message}${origin ? ` [${cutLine(origin, 100)}]` : ''}`;
}

export function countBySeverity(list: readonly EditorDiagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of list) counts.set(d.severity, (counts.get(d.severity) ?? 0) + 1);
  return [...counts].map(([severity, n]) => `${n} ${severity}${n === 1 ? '' : severity === 'information' ? '' : 's'}`).join(', ');
}
